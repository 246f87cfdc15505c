// The public API, and nothing else: GET examples, POST grade/stream, the stored grades
// (GET grades, GET grades/{id}, POST grades/{id}/corrections). Relative URLs, so the page also
// works when the service sits under a path prefix behind a proxy.
import { readEvents } from "./sse.js";

/** An error the page shows: the service's `{"error": {code, message, field}}`, or its own. */
export class ApiError extends Error {
  constructor(status, code, message, field = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

const apiUrl = (path) => new URL(path, document.baseURI);

async function errorFrom(response) {
  const text = await response.text().catch(() => "");
  try {
    const { error } = JSON.parse(text);
    if (error && typeof error.message === "string") {
      return new ApiError(response.status, error.code || `http_${response.status}`,
                          error.message, error.field ?? null);
    }
  } catch {
    // not the service's JSON error body (e.g. a proxy's HTML page): report the status
  }
  const detail = text.trim().slice(0, 200) || response.statusText || "no details";
  return new ApiError(response.status, `http_${response.status}`,
                      `the service answered HTTP ${response.status}: ${detail}`);
}

// The service answers or gives up at its own request deadline (STEPGRADE_REQUEST_TIMEOUT);
// these only stop the page from waiting for ever on a service that never answers.
export const EXAMPLES_TIMEOUT_MS = 15_000;
export const GRADE_TIMEOUT_MS = 300_000;
export const STORE_TIMEOUT_MS = 30_000;

function timedOut(ms) {
  return new ApiError(0, "timeout", `no answer from the service within ${ms / 1000} s`);
}

async function send(path, init, ms) {
  const deadline = AbortSignal.timeout(ms);
  const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
  try {
    return await fetch(apiUrl(path), { ...init, signal });
  } catch (err) {
    if (deadline.aborted) throw timedOut(ms);
    if (err.name === "AbortError") throw err;
    throw new ApiError(0, "unreachable", `could not reach the service (${err.message})`);
  }
}

/** The bundled example requests: [{name, request}]. */
export async function fetchExamples() {
  const response = await send("examples", { headers: { Accept: "application/json" } },
                              EXAMPLES_TIMEOUT_MS);
  if (!response.ok) throw await errorFrom(response);
  return response.json();
}

/**
 * Grade `request` over POST grade/stream, calling `onEvent(name, data)` per event.
 * Resolves with the report; rejects with an ApiError (HTTP error, `error` event, cut stream).
 */
export async function gradeStream(request, { apiKey = "", signal, onEvent = () => {} } = {}) {
  const headers = { "Content-Type": "application/json", Accept: "text/event-stream" };
  if (apiKey) headers["X-API-Key"] = apiKey;
  const response = await send("grade/stream",
                              { method: "POST", headers, body: JSON.stringify(request), signal },
                              GRADE_TIMEOUT_MS);
  if (!response.ok) throw await errorFrom(response);
  for await (const { event, data } of readStream(response.body, GRADE_TIMEOUT_MS)) {
    let payload;
    try {
      payload = JSON.parse(data);
    } catch {
      throw new ApiError(response.status, "bad_event", `the stream sent an unreadable ${event} event`);
    }
    onEvent(event, payload);
    if (event === "report") return payload;
    if (event === "error") {
      throw new ApiError(response.status, payload.code || "stream_error",
                         payload.message || "grading failed", payload.field ?? null);
    }
  }
  throw new ApiError(response.status, "stream_ended", "the stream ended before the report arrived");
}

async function* readStream(body, ms) {
  try {
    yield* readEvents(body);
  } catch (err) {
    // The fetch's signal also aborts the body: tell a deadline from the user's Stop.
    if (err.name === "TimeoutError") throw timedOut(ms);
    throw err;
  }
}

function jsonHeaders(apiKey, body = false) {
  const headers = { Accept: "application/json" };
  if (body) headers["Content-Type"] = "application/json";
  if (apiKey) headers["X-API-Key"] = apiKey;
  return headers;
}

async function storeCall(path, { apiKey = "", method = "GET", body } = {}) {
  const init = { method, headers: jsonHeaders(apiKey, body !== undefined) };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await send(path, init, STORE_TIMEOUT_MS);
  if (!response.ok) throw await errorFrom(response);
  return response.json();
}

/**
 * One page of the review queue: `{items, next_cursor}` (GET grades). `needsReview` false
 * lists every grade; `cursor` is the previous page's `next_cursor`.
 */
export function listGrades({ apiKey = "", needsReview = true, order = "uncertainty", limit = 20,
                             cursor = null } = {}) {
  const query = new URLSearchParams({ order, limit: String(limit) });
  if (needsReview) query.set("needs_review", "true");
  if (cursor) query.set("cursor", cursor);
  return storeCall(`grades?${query}`, { apiKey });
}

/** One stored grade: `{id, created_at, request, report, corrections}`. */
export function fetchGrade(id, { apiKey = "" } = {}) {
  return storeCall(`grades/${encodeURIComponent(id)}`, { apiKey });
}

/** Store a teacher's correction (`{step_labels, score?, note, reviewer?}`); the stored one back. */
export function postCorrection(id, correction, { apiKey = "" } = {}) {
  return storeCall(`grades/${encodeURIComponent(id)}/corrections`,
                   { apiKey, method: "POST", body: correction });
}
