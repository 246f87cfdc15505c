// The live view: `/grade/stream` events folded into a partial report, drawn like the final one.

/** An empty partial report. `nodes` lists the graph nodes finished so far. */
export function newDraft() {
  return { steps: [], meta: { warnings: [], degraded: false }, nodes: [] };
}

function stepAt(draft, index) {
  let step = draft.steps.find((s) => s.index === index);
  if (!step) {
    step = { index };
    draft.steps.push(step);
    draft.steps.sort((a, b) => a.index - b.index);
  }
  return step;
}

/** Fold one event into `draft` (mutated and returned). */
export function applyEvent(draft, name, data) {
  if (name === "accepted") draft.meta.mode = data.mode;
  if (name !== "node") return draft;
  draft.nodes.push({ node: data.node, ms: data.ms });
  // A new segmentation replaces the steps; labels from earlier nodes no longer apply.
  if (Array.isArray(data.steps)) draft.steps = data.steps.map((s) => ({ index: s.index, text: s.text }));
  for (const label of data.labels ?? []) Object.assign(stepAt(draft, label.index), label);
  if (data.answer) draft.answer = { ...draft.answer, ...data.answer };
  if (data.tree) draft.error_tree = data.tree;
  if (data.difficulty?.level) draft.difficulty = data.difficulty;
  if (data.problem_type) draft.problem_type = data.problem_type;
  for (const warning of data.warnings ?? []) {
    if (!draft.meta.warnings.includes(warning)) draft.meta.warnings.push(warning);
  }
  if (data.degraded) draft.meta.degraded = true;
  return draft;
}
