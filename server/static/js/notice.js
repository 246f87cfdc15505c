// An API error shown in a page's error box: title, the service's message, status, code, field.
import { el, fill } from "./dom.js";

// By error code first, then by HTTP status.
const TITLES = {
  unauthorized: "API key needed",
  not_found: "No such grade",
  store_off: "This service keeps no grades",
  labels_mismatch: "The labels do not match the steps",
  timeout: "No answer in time",
  unreachable: "No answer from the service",
  401: "API key needed",
  404: "No such grade",
  422: "The service refused the request",
  503: "This service keeps no grades",
};

const HINTS = {
  401: "Enter the service's key in “API key” at the top of the page, then try again.",
  404: "It was graded with another key, or deleted (STEPGRADE_RETENTION_DAYS).",
  503: "The service runs without a grade store (STEPGRADE_STORE=off).",
};

/** Show `err` (an ApiError, or any Error) in `box`, titled by its code or status. */
export function showError(box, err, fallbackTitle = "The request failed") {
  const status = err.status ?? 0;
  const code = err.code ?? "page_error";
  fill(box,
       el("h2", {}, TITLES[code] ?? TITLES[status] ?? fallbackTitle),
       el("p", { class: "message" }, String(err.message ?? err)),
       HINTS[status] ? el("p", {}, HINTS[status]) : null,
       el("p", { class: "detail" },
          [status ? `HTTP ${status}` : null, `code ${code}`,
           err.field ? `field ${err.field}` : null].filter(Boolean).join(" · ")));
  box.dataset.code = code;
  box.dataset.status = String(status);
  box.hidden = false;
}

export function clearError(box) {
  box.hidden = true;
  delete box.dataset.code;
  delete box.dataset.status;
  fill(box);
}
