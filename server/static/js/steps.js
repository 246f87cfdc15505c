// One card per step: label (colour, mark and word: never colour alone), text, reason, evidence.
import { el, num, percent } from "./dom.js";
import { mathText } from "./math.js";

export const LABELS = {
  correct: { mark: "✓", hint: "counts 1" },
  incorrect: { mark: "✗", hint: "counts 0" },
  meaningless: { mark: "~", hint: "correct in itself, but built on an earlier error; counts 0" },
  redundant: { mark: "=", hint: "valid but makes no progress" },
  unchecked: { mark: "?", hint: "no check could confirm or refute it; counts its expected value, 1 − P(wrong)" },
  not_math: { mark: "⚑", hint: "not mathematics: text addressed to the grader, graded as if absent; counts nothing" },
  pending: { mark: "…", hint: "not judged yet" },
};

function fact(name, ...value) {
  return [el("dt", {}, name), el("dd", {}, ...value)];
}

function stepLinks(indices, idPrefix) {
  return indices.flatMap((i, n) => [n ? ", " : "",
                                    el("a", { href: `#${idPrefix}step-${i}` }, `step ${i}`)]);
}

const STATES = {
  holds: "confirmed by a check",
  fails: "refuted by a check",
  unchecked: "not checked",
};

function checkItem(c) {
  return el("li", { class: `check ${c.polarity}`, dataset: { kind: c.kind } },
            c.detail, c.decisive ? "" : el("span", { class: "note" }, " (a note: not precise enough to decide)"));
}

function facts(step, idPrefix) {
  const rows = [];
  if (STATES[step.state]) rows.push(fact("checks", el("span", { class: "state" }, STATES[step.state])));
  if (step.checks?.length) {
    rows.push(fact("found", el("ul", { class: "checks" }, ...step.checks.map(checkItem))));
  }
  if (step.evidence?.length) {
    // Spaces between the chips, so a screen reader says words, not "symbolicdependency".
    rows.push(fact("evidence", ...step.evidence.flatMap((e, i) => [i ? " " : "",
                                                                   el("span", { class: "chip" }, e)])));
  }
  if (step.depends_on?.length) rows.push(fact("uses", ...stepLinks(step.depends_on, idPrefix)));
  if (typeof step.validity === "number") rows.push(fact("validity", num(step.validity)));
  if (typeof step.redundancy === "number") rows.push(fact("redundancy", num(step.redundancy)));
  if (typeof step.p_wrong === "number") {
    rows.push(fact("P(wrong)", el("span", { class: "p-wrong" }, percent(step.p_wrong))));
  }
  if (step.aligned_reference?.length) {
    const refs = step.aligned_reference.map((r) => `ref. step ${r}`).join(", ");
    const similarity = typeof step.similarity === "number" ? ` (similarity ${num(step.similarity)})` : "";
    rows.push(fact("matches", refs + similarity));
  }
  if (step.error_categories?.length) rows.push(fact("error type", step.error_categories.join(", ")));
  return rows.length ? el("dl", { class: "facts" }, ...rows.flat()) : null;
}

// Characters that print as nothing, shown by their code point in text addressed to the grader,
// so that a reviewer sees how it was disguised.
const INVISIBLE = /[\u00ad\u034f\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufeff\uffa0]/g;

function visible(text) {
  return text.replace(INVISIBLE, (c) => `⟨U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟩`);
}

/**
 * The card of one step. `step` may be partial (live view: text before labels); `provisional`
 * marks labels the final report may still change; `idPrefix` prefixes its id and step links.
 */
export function stepCard(step, { firstError = null, roots = new Set(), provisional = false,
                                 idPrefix = "" } = {}) {
  const label = LABELS[step.label] ? step.label : "pending";
  const tags = [
    step.index === firstError && el("span", { class: "tag first" }, "first error"),
    roots.has(step.index) && step.index !== firstError && el("span", { class: "tag root" }, "tree root"),
    provisional && step.label && el("span", { class: "tag provisional" }, "provisional"),
  ];
  return el("li", {
    id: `${idPrefix}step-${step.index}`, class: `step label-${label}`, tabindex: -1,
    dataset: { index: step.index, label },
  },
  el("div", { class: "step-head" },
     el("span", { class: "step-number" }, `Step ${step.index}`),
     el("span", { class: "badge", title: LABELS[label].hint },
        el("span", { "aria-hidden": "true" }, LABELS[label].mark), " ", label),
     ...tags),
  // Text addressed to the grader is shown as written, never typeset.
  label === "not_math" ? el("p", { class: "step-text addressed" }, visible(step.text ?? ""))
    : mathText(el("p", { class: "step-text" }), step.text ?? ""),
  step.reason ? el("p", { class: "reason" }, step.reason) : null,
  facts(step, idPrefix));
}
