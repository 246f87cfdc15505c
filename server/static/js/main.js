// Wires the review page: two views (Grade: examples, the form, the live grade over
// /grade/stream, errors; Review: the queue of stored grades and the teacher's corrections).
import { ApiError, fetchExamples, gradeStream } from "./api.js";
import { Review } from "./correct.js";
import { el, fill } from "./dom.js";
import { controlFor, fillForm, readRequest } from "./form.js";
import { applyEvent, newDraft } from "./live.js";
import { mathAvailable, setMathRendering } from "./math.js";
import { Queue } from "./queue.js";
import { renderReport, scoreText } from "./report.js";

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
  return document.querySelector(`label[for="${control.id}"]`)?.textContent.trim() ?? control.id;
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
  showStored(null);
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
    say(`Graded: ${scoreText(report)}${report.meta?.degraded ? " (degraded)" : ""}`
        + `${report.needs_review ? "; needs review" : ""}.`);
    showStored(report.meta?.grade_id);
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

/** A link to the stored grade in the Review view (when the service keeps grades). */
function showStored(id) {
  const link = $("stored-link");
  if (!id) {
    link.hidden = true;
    return;
  }
  fill(link, "Stored: ", el("a", { href: `#review/${encodeURIComponent(id)}` },
                             "review or correct this grade"));
  link.hidden = false;
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

// ---- views: Grade and Review ------------------------------------------------------------------

const apiKey = () => $("api_key").value.trim();

function openGrade(id) {
  const hash = `#review/${encodeURIComponent(id)}`;
  if (location.hash === hash) route();
  else location.hash = hash;
}

const queue = new Queue({
  list: $("queue-list"), status: $("queue-status"), error: $("queue-error"), more: $("queue-more"),
  needsReview: $("queue-needs-review"), apiKey, onOpen: openGrade,
});
const review = new Review({
  title: $("detail-title"), status: $("detail-status"), error: $("detail-error"),
  head: $("detail-head"), report: $("detail-report"), form: $("correction-form"),
  summary: $("relabel-summary"), back: $("detail-back"),
}, { apiKey, onSaved: (id) => queue.markCorrected(id) });
const TABS = { grade: $("tab-grade"), review: $("tab-review") };
let view = "grade";
let queueKey = null; // the key the queue was loaded with: another key sees other grades

function showView(name) {
  view = name;
  for (const [tabName, tab] of Object.entries(TABS)) {
    const on = tabName === name;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
  if (name === "grade") drawSoon();
}

// Location hashes: #review lists the queue, #review/<id> opens a grade, #grade (or none) grades.
// Other hashes (step links, the skip link) leave the view alone.
async function route() {
  const hash = locationHash();
  if (hash === "" || hash === "grade") {
    showView("grade");
    return;
  }
  if (hash !== "review" && !hash.startsWith("review/")) return;
  const arriving = view !== "review";
  showView("review");
  if (queueKey !== apiKey()) review.close();
  if (arriving || queueKey !== apiKey()) {
    // New grades may have come in while the Grade view was open.
    queueKey = apiKey();
    queue.reload();
  }
  const id = linkedGrade();
  if (!id) return;
  queue.markSelected(id);
  if (await review.open(id)) $("grade-detail").focus({ preventScroll: false });
}

/** The location's hash, decoded, without its "#". */
function locationHash() {
  return decodeURIComponent(location.hash.slice(1));
}

/** The grade the location names (#review/<id>), or "". */
function linkedGrade() {
  const hash = locationHash();
  return hash.startsWith("review/") ? hash.slice("review/".length) : "";
}

function onTabKey(event) {
  const order = Object.keys(TABS);
  const at = order.indexOf(event.target.id.slice("tab-".length));
  const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: order.length - 1 }[event.key];
  if (next === undefined) return;
  event.preventDefault();
  const name = order[(next + order.length) % order.length];
  TABS[name].focus();
  TABS[name].click();
}

for (const [name, tab] of Object.entries(TABS)) {
  tab.addEventListener("click", () => {
    if (location.hash === `#${name}`) route();
    else location.hash = `#${name}`;
  });
  tab.addEventListener("keydown", onTabKey);
}
window.addEventListener("hashchange", route);
$("queue-refresh").addEventListener("click", () => {
  queueKey = apiKey();
  queue.reload();
});
$("queue-needs-review").addEventListener("change", () => queue.reload());
$("queue-more").addEventListener("click", () => queue.loadMore());
$("detail-back").addEventListener("click", () => {
  const entry = [...$("queue-list").children].find((li) => li.dataset.id === queue.selected);
  (entry?.querySelector("button") ?? $("queue-list")).focus();
  entry?.scrollIntoView({ block: "nearest" });
});
$("api_key").addEventListener("change", () => {
  if (view !== "review") {
    queueKey = null;
    return;
  }
  // What is shown was loaded (or refused) with the former key. A grade the link names is opened
  // again with the new one: a teacher who follows a link and then enters the key sees the grade.
  queueKey = apiKey();
  review.close();
  queue.reload();
  const id = linkedGrade();
  if (id) review.open(id);
});

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
  review.draw();
});
if (!mathAvailable()) {
  $("render-math").checked = false;
  $("render-math").disabled = true;
  setMathRendering(false);
}
let resizeTimer = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => (view === "grade" ? draw() : review.draw()), 150);
});
loadExamples();
route();
