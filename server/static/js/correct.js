// One stored grade (GET grades/{id}) drawn as a fresh grade is, plus the teacher's correction:
// a label per step (buttons, or keys on a focused step), an optional score, a note, and Save
// (POST grades/{id}/corrections). The latest correction is shown, its changed labels marked.
import { fetchGrade, postCorrection } from "./api.js";
import { el, fill } from "./dom.js";
import { mathText } from "./math.js";
import { clearError, showError } from "./notice.js";
import { when } from "./queue.js";
import { renderReport, scoreText } from "./report.js";
import { LABELS } from "./steps.js";

/** The labels a teacher sets (StepLabel), in the order of their keys 1-5. */
export const CHOICES = ["correct", "incorrect", "meaningless", "redundant", "not_math"];
const KEYS = { 1: "correct", 2: "incorrect", 3: "meaningless", 4: "redundant", 5: "not_math",
               c: "correct", i: "incorrect", m: "meaningless", r: "redundant", n: "not_math" };
const PREFIX = "rv-"; // step ids in this view: rv-step-3 (the Grade view has step-3)
const REVIEWER_KEY = "stepgrade.reviewer";

/** The correction that holds: the last one (the API lists them oldest first). */
export function latest(detail) {
  const all = detail.corrections ?? [];
  return all.length ? all[all.length - 1] : null;
}

function remembered() {
  try {
    return localStorage.getItem(REVIEWER_KEY) ?? "";
  } catch {
    return ""; // storage off (private mode, policy): the field simply starts empty
  }
}

function remember(reviewer) {
  try {
    localStorage.setItem(REVIEWER_KEY, reviewer);
  } catch {
    // as above
  }
}

export class Review {
  /** `els`: the view's nodes by role; `apiKey()` reads the key; `onSaved(id)` after a save. */
  constructor(els, { apiKey, onSaved = () => {} }) {
    Object.assign(this, els);
    this.apiKey = apiKey;
    this.onSaved = onSaved;
    this.current = null; // { detail, grader: [labels], labels: [labels] }
    this.opening = null;
    this.form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.save();
    });
    this.form.elements["correction-reset"].addEventListener("click", () => this.reset());
    this.report.addEventListener("keydown", (event) => this.onKey(event));
  }

  say(text) {
    this.status.textContent = text;
  }

  /** Fetch grade `id` and draw it; errors go to the view's error box. */
  async open(id) {
    const token = {};
    this.opening = token;
    clearError(this.error);
    this.say(`Loading grade ${id}…`);
    let detail;
    try {
      detail = await fetchGrade(id, { apiKey: this.apiKey() });
    } catch (err) {
      if (this.opening !== token) return false;
      this.current = null;
      fill(this.head);
      fill(this.report);
      this.form.hidden = true;
      showError(this.error, err, "The grade could not be loaded");
      this.say(`Grade ${id} not loaded: ${err.message}`);
      return false;
    }
    if (this.opening !== token) return false;
    this.show(detail);
    const report = detail.report;
    this.say(`Opened grade ${id}: ${scoreText(report)}`
             + `${report.needs_review ? "; needs review" : ""}`
             + `${latest(detail) ? "; corrected" : ""}.`);
    return true;
  }

  show(detail) {
    const report = detail.report;
    const grader = (report.steps ?? []).map((s) => s.label);
    const last = latest(detail);
    const labels = last && last.step_labels.length === grader.length ? [...last.step_labels]
      : (report.steps ?? []).map(judged);
    this.current = { detail, grader, labels };
    this.title.textContent = `Grade ${detail.id.slice(0, 8)}`;
    fill(this.head,
         el("p", { class: "detail" }, `stored ${when(detail.created_at)} · id `,
            el("code", {}, detail.id), report.meta?.mode ? ` · ${report.meta.mode} mode` : ""),
         el("section", { class: "problem", "aria-label": "Problem" },
            el("h3", {}, "Problem"),
            mathText(el("p", { class: "problem-text" }), detail.request?.problem ?? "")),
         last ? correctionSection(detail, last, grader) : null);
    this.draw();
    const f = this.form.elements;
    f["correction-score"].value = last?.score ?? "";
    f["correction-score"].removeAttribute("aria-invalid");
    f["correction-note"].value = last?.note ?? "";
    f["correction-reviewer"].value = last?.reviewer ?? remembered();
    this.form.hidden = !grader.length;
    this.back.hidden = false;
    this.updateSummary();
  }

  /** Draw the report (again: on open, on a resize, on a LaTeX toggle) with its label editors. */
  draw() {
    if (!this.current) return;
    renderReport(this.report, this.current.detail.report, {
      idPrefix: PREFIX, width: this.report.clientWidth || 800,
      onSelect: (step) => this.focusStep(this.cards().findIndex((c) => Number(c.dataset.index) === step)),
    });
    this.cards().forEach((card, i) => this.equip(card, i));
  }

  cards() {
    return [...this.report.querySelectorAll(".step-list > .step")];
  }

  /** A step card becomes editable: focusable, the four label buttons, the change mark. */
  equip(card, i) {
    card.tabIndex = 0;
    card.setAttribute("aria-describedby", "label-keys");
    const buttons = CHOICES.map((label, n) => el("button", {
      type: "button", class: `set-label choice-${label}`, dataset: { label },
      "aria-pressed": "false", title: `${LABELS[label].hint} (key ${n + 1} or ${label[0]})`,
      onclick: () => this.setLabel(i, label),
    }, el("span", { "aria-hidden": "true" }, `${LABELS[label].mark} `), label));
    card.append(el("div", { class: "relabel", role: "group",
                            "aria-label": `Your label for step ${this.stepNumber(i)}` },
                   el("span", { class: "relabel-title" }, "Your label:"), ...buttons,
                   el("span", { class: "changed-note" })));
    this.paint(card, i);
  }

  paint(card, i) {
    const { grader, labels } = this.current;
    const changed = labels[i] !== grader[i];
    card.dataset.teacherLabel = labels[i];
    card.classList.toggle("relabelled", changed);
    for (const button of card.querySelectorAll(".set-label")) {
      button.setAttribute("aria-pressed", String(button.dataset.label === labels[i]));
    }
    card.querySelector(".changed-note").textContent = changed ? `changed from ${grader[i]}` : "";
  }

  setLabel(i, label) {
    if (!this.current || !CHOICES.includes(label)) return;
    this.current.labels[i] = label;
    this.paint(this.cards()[i], i);
    const grader = this.current.grader[i];
    this.say(`Step ${this.stepNumber(i)}: ${label}${label === grader ? " (as graded)" : ` (graded ${grader})`}.`);
    this.updateSummary();
  }

  /** The report's number of the i-th step (its `index`, 1-based). */
  stepNumber(i) {
    return this.current.detail.report.steps[i]?.index ?? i + 1;
  }

  focusStep(i) {
    const cards = this.cards();
    const card = cards[Math.max(0, Math.min(i, cards.length - 1))];
    if (!card) return;
    card.scrollIntoView({ block: "nearest" });
    card.focus({ preventScroll: true });
  }

  onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const card = event.target.closest?.(".step-list > .step");
    if (!card || event.target.matches("input, textarea, select")) return;
    const i = this.cards().indexOf(card);
    const label = KEYS[event.key.toLowerCase()];
    const moves = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: Infinity };
    if (label) this.setLabel(i, label);
    else if (event.key in moves) this.focusStep(moves[event.key]);
    else return;
    event.preventDefault();
  }

  updateSummary() {
    const { grader, labels } = this.current;
    const changed = labels.map((l, i) => (l !== grader[i] ? this.stepNumber(i) : null))
      .filter((n) => n !== null);
    this.summary.textContent = changed.length
      ? `Changed from the grader: step${changed.length > 1 ? "s" : ""} ${changed.join(", ")}.`
      : "Your labels agree with the grader's.";
  }

  reset() {
    if (!this.current) return;
    this.show(this.current.detail);
    this.say("Your changes are undone.");
  }

  async save() {
    if (!this.current) return;
    const { detail, labels } = this.current;
    const f = this.form.elements;
    clearError(this.error);
    for (const node of this.form.querySelectorAll("[aria-invalid]")) node.removeAttribute("aria-invalid");
    const body = { step_labels: [...labels], note: f["correction-note"].value };
    // The service checks the score (0-10, whole): a bad one comes back as a 422 naming it.
    const score = f["correction-score"].value.trim();
    if (score !== "") body.score = Number(score);
    const reviewer = f["correction-reviewer"].value.trim();
    if (reviewer) {
      body.reviewer = reviewer;
      remember(reviewer);
    }
    f["correction-save"].disabled = true;
    this.say("Saving the correction…");
    let stored;
    try {
      stored = await postCorrection(detail.id, body, { apiKey: this.apiKey() });
    } catch (err) {
      showError(this.error, err, "The correction was not saved");
      this.markInvalid(err.field);
      this.say(`Not saved: ${err.message}`);
      return;
    } finally {
      f["correction-save"].disabled = false;
    }
    this.onSaved(detail.id);
    this.show({ ...detail, corrections: [...(detail.corrections ?? []), stored] });
    this.say(`Correction saved for grade ${detail.id.slice(0, 8)}`
             + `${stored.score !== null && stored.score !== undefined ? `: score ${stored.score}/10` : ""}.`);
  }

  markInvalid(field) {
    const head = (field ?? "").split(".")[0];
    const control = { score: "correction-score", note: "correction-note",
                      reviewer: "correction-reviewer" }[head];
    if (control) {
      this.form.elements[control].setAttribute("aria-invalid", "true");
      this.form.elements[control].focus();
    } else if (head === "step_labels") {
      this.report.querySelector(".step-list")?.setAttribute("aria-invalid", "true");
    }
  }

  /** Nothing open (e.g. the key changed): the detail pane is empty again. */
  close() {
    this.opening = null;
    this.current = null;
    this.title.textContent = "Stored grade";
    fill(this.head);
    fill(this.report);
    clearError(this.error);
    this.form.hidden = true;
    this.back.hidden = true;
    this.say("Open a grade from the queue to review it.");
  }
}

/** A teacher's starting label for a step: the grader's, and for a step no check could decide,
 * the likelier one by its P(wrong) (a teacher judges every step; the change mark shows it). */
function judged(step) {
  if (step.label !== "unchecked") return step.label;
  return typeof step.p_wrong === "number" && step.p_wrong >= 0.5 ? "incorrect" : "correct";
}

function correctionSection(detail, last, grader) {
  const steps = detail.report.steps ?? [];
  const changed = last.step_labels
    .map((label, i) => (label !== grader[i]
      ? `step ${steps[i]?.index ?? i + 1}: ${grader[i]} → ${label}` : null))
    .filter(Boolean);
  const earlier = (detail.corrections ?? []).length - 1;
  const graded = detail.report.score;
  return el("section", { class: "correction-shown", "aria-label": "Latest correction" },
    el("h3", {}, "Corrected"),
    el("p", {}, `by ${last.reviewer || "an unnamed reviewer"}, ${when(last.created_at)}`,
       earlier > 0 ? ` (replaces ${earlier} earlier correction${earlier > 1 ? "s" : ""})` : ""),
    el("p", { class: "correction-score" },
       typeof last.score === "number" ? `score ${last.score}/10 (graded ${graded}/10)`
                                      : `score not changed (graded ${graded}/10)`),
    el("p", { class: "correction-labels" },
       changed.length ? `labels changed: ${changed.join("; ")}` : "labels as graded"),
    last.note ? el("p", { class: "correction-note" }, `note: ${last.note}`) : null);
}
