// The Tree-of-Error (StepMathAgent, DESIGN.md 4.4) drawn as SVG: nodes are the wrong and
// meaningless steps, an arrow i -> j says step j builds on step i, roots start the chains.
// Nodes sit in columns by depth (longest path from a root), so every chain reads left to
// right; on a narrow screen the same layout is turned to read top to bottom.

const SVG = "http://www.w3.org/2000/svg";
const R = 20; // node radius
const MAIN = 96; // distance between depths
const CROSS = 78; // distance between nodes of one depth (room for the "first error" tag)
const PAD = 34;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.setAttribute("class", value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children) node.append(child);
  return node;
}

/** The tree's steps and their place: depth from the roots, rank within the depth. */
export function layoutTree(tree) {
  const edges = (tree.edges ?? []).filter(([a, b]) => a !== b);
  const steps = new Set([...(tree.roots ?? []), ...edges.flat(), ...(tree.chains ?? []).flat()]);
  const order = [...steps].sort((a, b) => a - b);
  const depth = new Map(order.map((s) => [s, 0]));
  // Edges point forward (the service validates that), so one pass in step order settles depths.
  for (const step of order) {
    for (const [a, b] of edges) {
      if (b === step && a < b) depth.set(b, Math.max(depth.get(b), depth.get(a) + 1));
    }
  }
  const columns = new Map();
  for (const step of order) {
    const d = depth.get(step);
    if (!columns.has(d)) columns.set(d, []);
    columns.get(d).push(step);
  }
  const nodes = order.map((step) => ({
    step, depth: depth.get(step), rank: columns.get(depth.get(step)).indexOf(step),
  }));
  const widest = Math.max(0, ...[...columns.values()].map((c) => c.length));
  return { nodes, edges, depths: columns.size, widest, columns };
}

/** Pixel size of the drawing in one orientation ("across": left to right). */
function size(layout, across) {
  const main = 2 * PAD + (layout.depths - 1) * MAIN + 2 * R;
  const cross = 2 * PAD + (layout.widest - 1) * CROSS + 2 * R;
  return across ? { width: main, height: cross } : { width: cross, height: main };
}

/** "(1)-(2)-(3), (5)-(6)" from the chains (what the report's `formatted` says). */
export function chainsText(tree) {
  if (tree.formatted) return tree.formatted;
  return (tree.chains ?? []).map((c) => c.map((s) => `(${s})`).join("-")).join(", ");
}

/**
 * An <svg> of the tree. `labels`: step -> label; `firstError`: the step HCRS calls the first
 * error; `onSelect(step)` runs on click or Enter; `maxWidth` picks the orientation.
 */
export function drawTree(tree, { labels = new Map(), reasons = new Map(), firstError = null,
                                 onSelect = () => {}, maxWidth = Infinity } = {}) {
  const layout = layoutTree(tree);
  const wide = size(layout, true).width;
  const across = wide <= maxWidth || wide <= size(layout, false).width;
  const { width, height } = size(layout, across);
  const roots = new Set(tree.roots ?? []);
  const centre = (node) => {
    const column = layout.columns.get(node.depth).length;
    const offset = ((layout.widest - column) * CROSS) / 2;
    const main = PAD + R + node.depth * MAIN;
    const cross = PAD + R + offset + node.rank * CROSS;
    return across ? { x: main, y: cross } : { x: cross, y: main };
  };
  const at = new Map(layout.nodes.map((n) => [n.step, { ...n, ...centre(n) }]));

  const root = svg("svg", {
    class: `error-tree ${across ? "across" : "down"}`, viewBox: `0 0 ${width} ${height}`,
    width, height, role: "group", "aria-label": `Tree-of-Error: ${chainsText(tree)}`,
  });
  root.append(svg("defs", {}, svg("marker", {
    id: "arrowhead", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7,
    orient: "auto-start-reverse", class: "arrowhead",
  }, svg("path", { d: "M0,0 L10,5 L0,10 z" }))));

  const edgeLayer = svg("g", { class: "edges" });
  for (const [a, b] of layout.edges) {
    const from = at.get(a);
    const to = at.get(b);
    if (!from || !to) continue;
    edgeLayer.append(svg("path", {
      class: "edge", d: edgePath(from, to, across), "marker-end": "url(#arrowhead)",
      dataset: { from: a, to: b },
    }, svg("title", {}, `step ${b} builds on step ${a}`)));
  }
  root.append(edgeLayer);

  const nodeLayer = svg("g", { class: "nodes" });
  for (const node of at.values()) {
    const label = labels.get(node.step) ?? "pending";
    const first = node.step === firstError;
    const classes = ["node", label, roots.has(node.step) && "root", first && "first-error"];
    const words = [`step ${node.step}`, label, roots.has(node.step) && "root",
                   first && "first error"].filter(Boolean).join(", ");
    const group = svg("g", {
      class: classes.filter(Boolean).join(" "), tabindex: 0, role: "link",
      "aria-label": `${words}: go to the step`, dataset: { step: node.step },
      transform: `translate(${node.x} ${node.y})`,
    }, svg("title", {}, reasons.get(node.step) ? `${words}: ${reasons.get(node.step)}` : words));
    if (first) group.append(svg("circle", { class: "first-ring", r: R + 6 }));
    group.append(svg("circle", { class: "disc", r: R }),
                 svg("text", { class: "number", "text-anchor": "middle", dy: "0.35em" },
                     String(node.step)));
    if (first) {
      // Below the node when chains run across (columns are spaced for it), above when they
      // run down (the first error is normally a root, with nothing above it).
      group.append(svg("text", { class: "tag", "text-anchor": "middle",
                                 y: across ? R + 19 : -(R + 11) }, "first error"));
    }
    group.addEventListener("click", () => onSelect(node.step));
    group.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        onSelect(node.step);
      }
    });
    nodeLayer.append(group);
  }
  root.append(nodeLayer);
  return root;
}

/** A straight arrow to the next depth; a bowed one when it skips depths (not through nodes). */
function edgePath(from, to, across) {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy) || 1;
  const start = { x: from.x + (dx / length) * R, y: from.y + (dy / length) * R };
  const end = { x: to.x - (dx / length) * (R + 2), y: to.y - (dy / length) * (R + 2) };
  const span = to.depth - from.depth;
  if (span <= 1) return `M${start.x},${start.y} L${end.x},${end.y}`;
  const bow = (span - 1) * 30;
  const mid = { x: (start.x + end.x) / 2 - (across ? 0 : bow), y: (start.y + end.y) / 2 - (across ? bow : 0) };
  return `M${start.x},${start.y} Q${mid.x},${mid.y} ${end.x},${end.y}`;
}
