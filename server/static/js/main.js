// Wires the review page: examples, the form, the live grade over /grade/stream, errors.
import { ApiError, fetchExamples, gradeStream } from "./api.js";
import { el, fill } from "./dom.js";
import { controlFor, fillForm, readRequest } from "./form.js";
import { applyEvent, newDraft } from "./live.js";
import { mathAvailable, setMathRendering } from "./math.js";
import { renderReport } from "./report.js";

const $ = (id) => document.getElementById(id);
const form = $("grade-form");
const result = $("result");
const status = $("status");
const progress = $("progress");
const problemBox = $("error-box");

let examples = [];
let loadedExample = null; // name of the example in the form, until the user edits it
let shown = null; // { report, final } on screen
let running = null; // AbortController of the grade in flight
const earlier = []; // reports graded this session, to compare (e.g. LLM and offline mode)

function say(text) {
  status.textContent = text;
}

function jumpTo(step) {
  const card = document.getElementById(`step-${step}`);
  if (!card) return;
  card.scrollIntoView({ block: "center" });
  card.focus({ preventScroll: true });
}

function draw() {
  if (!shown) return;
  renderReport(result, shown.report, {
    final: shown.final, onSelect: jumpTo, width: result.clientWidth || 800,
  });
}

let pending = false;
function drawSoon() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    draw();
  });
}

// ---- errors -------------------------------------------------------------------------------

// By error code first (a stream's `error` event arrives on an HTTP 200), then by status.
const TITLES = {
  unauthorized: "API key needed",
  body_too_large: "Request too large",
  llm_unavailable: "No LLM on this service",
  deadline_exceeded: "Grading took too long",
  timeout: "Grading took too long",
  unreachable: "No answer from the service",
  401: "API key needed",
  413: "Request too large",
  422: "The service refused the request",
  504: "Grading took too long",
};

function clearProblems() {
  problemBox.hidden = true;
  fill(problemBox);
  for (const node of form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
}

function showProblem(err) {
  const title = TITLES[err.code] ?? TITLES[err.status] ?? "Grading failed";
  const control = controlFor(form, err.field);
  const hint = err.code === "unauthorized"
    ? "This service requires a key: enter it in “API key” and grade again."
    : control ? `See “${labelOf(control)}”.` : "";
  fill(problemBox,
       el("h2", {}, title),
       el("p", { class: "message" }, err.message),
       hint ? el("p", {}, hint) : null,
       el("p", { class: "detail" },
          [err.status ? `HTTP ${err.status}` : null, `code ${err.code}`,
           err.field ? `field ${err.field}` : null].filter(Boolean).join(" · ")));
  problemBox.dataset.code = err.code;
  problemBox.dataset.status = String(err.status);
  problemBox.hidden = false;
  if (control) {
    control.setAttribute("aria-invalid", "true");
    const focusable = control.matches("fieldset") ? control.querySelector("input:checked, input") : control;
    focusable?.focus();
  }
}

function labelOf(control) {
  if (control.matches("fieldset")) return control.querySelector("legend")?.textContent.trim() ?? "";
  return form.querySelector(`label[for="${control.id}"]`)?.textContent.trim() ?? control.id;
}

// ---- grading ------------------------------------------------------------------------------

function setRunning(controller) {
  running = controller;
  $("grade-button").disabled = Boolean(controller);
  $("stop-button").disabled = !controller;
  result.setAttribute("aria-busy", controller ? "true" : "false");
}

function noteNode(name, data) {
  if (name === "node") {
    progress.append(el("li", { dataset: { node: data.node } }, data.node,
                       typeof data.ms === "number" ? ` ${data.ms.toFixed(1)} ms` : ""));
  } else {
    progress.append(el("li", { class: `event-${name}`, dataset: { event: name } }, name));
  }
}

async function grade(event) {
  event.preventDefault();
  if (running) return;
  clearProblems();
  fill(progress);
  const request = readRequest(form);
  const controller = new AbortController();
  setRunning(controller);
  const draft = newDraft();
  shown = { report: draft, final: false };
  fill(result);
  delete result.dataset.state;
  say("Grading…");
  try {
    const report = await gradeStream(request, {
      apiKey: form.elements.api_key.value.trim(),
      signal: controller.signal,
      onEvent(name, data) {
        noteNode(name, data);
        if (name === "node" || name === "accepted") {
          applyEvent(draft, name, data);
          drawSoon();
        }
      },
    });
    shown = { report, final: true };
    draw();
    remember(report);
    say(`Graded: score ${report.score}/10${report.meta?.degraded ? " (degraded)" : ""}.`);
  } catch (err) {
    if (err instanceof ApiError) {
      showProblem(err);
      say(`Not graded: ${err.message}`);
    } else if (err.name === "AbortError") {
      say("Stopped.");
    } else {
      showProblem(new ApiError(0, "page_error", String(err.message ?? err)));
      say("Not graded.");
    }
    if (!draft.steps.length) {
      shown = null;
      fill(result);
    }
  } finally {
    setRunning(null);
  }
}

// ---- earlier grades (compare modes) ---------------------------------------------------------

function remember(report) {
  const name = loadedExample ?? "your input";
  const degraded = report.meta?.degraded ? " (degraded)" : "";
  earlier.push({ report, title: `${name} · ${report.meta?.mode ?? "?"}${degraded} · ${report.score}/10` });
  const list = $("history-list");
  const index = earlier.length - 1;
  list.append(el("li", {}, el("button", {
    type: "button", class: "link",
    onclick: () => {
      shown = { report: earlier[index].report, final: true };
      draw();
      say(`Showing grade #${index + 1}: ${earlier[index].title}.`);
    },
  }, earlier[index].title)));
  $("history").hidden = false;
}

// ---- examples -----------------------------------------------------------------------------

async function loadExamples() {
  const select = $("example");
  try {
    examples = await fetchExamples();
  } catch (err) {
    $("example-status").textContent = `Examples unavailable: ${err.message}`;
    return;
  }
  for (const example of examples) select.append(el("option", { value: example.name }, example.name));
  select.disabled = false;
  $("load-example").disabled = false;
}

function loadExample() {
  const example = examples.find((e) => e.name === $("example").value);
  if (!example) return;
  fillForm(form, example.request);
  clearProblems();
  loadedExample = example.name;
  say(`Loaded the example ${example.name}.`);
}

// ---- start --------------------------------------------------------------------------------

form.addEventListener("submit", grade);
form.addEventListener("input", (event) => {
  if (event.target.name !== "api_key") loadedExample = null;
});
$("stop-button").addEventListener("click", () => running?.abort());
$("load-example").addEventListener("click", loadExample);
$("render-math").addEventListener("change", (event) => {
  setMathRendering(event.target.checked);
  draw();
});
if (!mathAvailable()) {
  $("render-math").checked = false;
  $("render-math").disabled = true;
  setMathRendering(false);
}
let resizeTimer = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(draw, 150);
});
loadExamples();
