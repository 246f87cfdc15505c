// LaTeX in step texts, drawn by the vendored KaTeX (vendor/katex) or shown as source.
// KaTeX builds DOM nodes (no innerHTML), which the page's Content-Security-Policy allows.

const DELIMITERS = [
  { left: "$$", right: "$$", display: true },
  { left: "\\[", right: "\\]", display: true },
  { left: "\\(", right: "\\)", display: false },
  { left: "$", right: "$", display: false },
];

let rendering = true;

export function setMathRendering(enabled) {
  rendering = enabled;
}

export function mathAvailable() {
  return typeof window.renderMathInElement === "function";
}

/** `node` showing `text`: its `$...$`, `\(...\)` spans typeset when rendering is on. */
export function mathText(node, text) {
  node.textContent = text;
  node.classList.add("tex");
  if (!rendering || !mathAvailable()) return node;
  window.renderMathInElement(node, {
    delimiters: DELIMITERS,
    throwOnError: false, // a malformed formula stays visible as red source, not an exception
    strict: "ignore", // CJK text inside math is fine for a reader
    trust: false,
    maxExpand: 200,
    errorCallback: () => {},
  });
  return node;
}
