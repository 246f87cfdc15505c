// The review queue: stored grades (GET grades), most uncertain first, a page at a time.
// Each entry is a button that opens the grade; every figure shown is a field of the listing.
import { listGrades } from "./api.js";
import { el, fill } from "./dom.js";
import { clearError, showError } from "./notice.js";
import { intervalText } from "./report.js";

export const PAGE_SIZE = 20;

/** When a grade was stored, in the reader's locale (the API gives UTC ISO 8601). */
export function when(iso) {
  const moment = new Date(iso);
  return Number.isNaN(moment.getTime()) ? String(iso) : moment.toLocaleString();
}

function entry(item, onOpen) {
  const interval = intervalText(item.score_interval);
  const reasons = item.review_reasons ?? [];
  return el("li", {
    class: `queue-item${item.corrected ? " corrected" : ""}`,
    dataset: { id: item.id, corrected: String(Boolean(item.corrected)) },
  },
  el("button", { type: "button", class: "open-grade", onclick: () => onOpen(item.id) },
     el("span", { class: "q-head" },
        el("span", { class: "q-score" }, `${item.score}/10`),
        interval ? el("span", { class: "q-interval" }, interval) : null,
        item.corrected
          ? el("span", { class: "q-corrected" }, el("span", { "aria-hidden": "true" }, "✓"), " corrected")
          : null),
     el("span", { class: "q-excerpt" }, item.problem_excerpt),
     reasons.length
       ? el("span", { class: "q-reasons" }, reasons.map((r) => r.message).join(" · "))
       : null,
     el("span", { class: "q-when" }, when(item.created_at))));
}

/**
 * The queue's list, status line and "Load more" button. `apiKey()` reads the key field;
 * `onOpen(id)` opens a grade.
 */
export class Queue {
  constructor({ list, status, error, more, needsReview, apiKey, onOpen }) {
    Object.assign(this, { list, status, error, more, needsReview, apiKey, onOpen });
    this.cursor = null;
    this.loading = null; // the load in flight: a newer one makes its answer stale
    this.selected = null;
  }

  /** Load the first page again (the filter may have changed, grades may have come in). */
  reload() {
    this.cursor = null;
    return this.load(true);
  }

  loadMore() {
    return this.load(false);
  }

  async load(fresh) {
    const token = {};
    this.loading = token;
    clearError(this.error);
    this.more.disabled = true;
    this.status.textContent = fresh ? "Loading the queue…" : "Loading more…";
    let page;
    try {
      page = await listGrades({ apiKey: this.apiKey(), needsReview: this.needsReview.checked,
                                cursor: fresh ? null : this.cursor, limit: PAGE_SIZE });
    } catch (err) {
      if (this.loading !== token) return;
      showError(this.error, err, "The queue could not be loaded");
      this.status.textContent = `Queue not loaded: ${err.message}`;
      this.more.disabled = false;
      return;
    }
    if (this.loading !== token) return;
    if (fresh) fill(this.list);
    for (const item of page.items) this.list.append(entry(item, this.onOpen));
    this.cursor = page.next_cursor ?? null;
    this.more.hidden = !this.cursor;
    this.more.disabled = false;
    this.markSelected(this.selected);
    const shown = this.list.children.length;
    const what = this.needsReview.checked ? "grades that need review" : "stored grades";
    this.status.textContent = shown
      ? `${shown} ${what}${this.cursor ? " so far" : ""}, most uncertain first.`
      : `No ${what}.`;
  }

  /** Mark the open grade's entry (aria-current), e.g. after opening it from a link. */
  markSelected(id) {
    this.selected = id;
    for (const item of this.list.children) {
      const button = item.querySelector(".open-grade");
      if (item.dataset.id === id) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    }
  }

  /** A saved correction: mark the entry corrected without reloading the list. */
  markCorrected(id) {
    const item = [...this.list.children].find((li) => li.dataset.id === id);
    if (!item || item.dataset.corrected === "true") return;
    item.dataset.corrected = "true";
    item.classList.add("corrected");
    item.querySelector(".q-head").append(
      el("span", { class: "q-corrected" }, el("span", { "aria-hidden": "true" }, "✓"), " corrected"));
  }
}
