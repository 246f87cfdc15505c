// Building DOM nodes without innerHTML: text stays text, whatever the report contains.

/** el("li", {class: "step", dataset: {label: "correct"}}, "text", child, null) */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(node, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** A number from the report, formatted; "–" when the report has none. */
export function num(value, digits = 2) {
  return typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "–";
}

/** A probability from the report as a percentage, e.g. 0.123 -> "12%". */
export function percent(value) {
  return typeof value === "number" && Number.isFinite(value) ? `${Math.round(value * 100)}%` : "–";
}

export function yesNo(flag) {
  return flag === true ? "yes" : flag === false ? "no" : "–";
}

/** Replace the children of `node`. */
export function fill(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}
