// The result panel: a GradeReport, or a partial one while the stream is still running.
// Every number shown is a field of the report (or of a stream event), formatted, never computed.
import { el, fill, num, yesNo } from "./dom.js";
import { stepCard } from "./steps.js";
import { chainsText, drawTree, layoutTree } from "./tree.js";

const QUADRANTS = {
  robust: "robust reasoning",
  hallucination: "hallucination",
  lucky_guess: "lucky guess",
  failure: "complete failure",
};
const KNOWN_META = new Set(["mode", "llm_calls", "prompt_tokens", "completion_tokens",
  "elapsed_ms", "node_ms", "degraded", "warnings", "versions", "failed_checks", "grade_id",
  "memory"]);

function card(metric, title, value, ...detail) {
  return el("div", { class: "card", dataset: { metric } },
            el("h3", {}, title), el("p", { class: "value" }, value),
            detail.length ? el("p", { class: "detail" }, ...detail) : null);
}

// `score_interval` is the central 80% interval of the human score (scoring/schema.py,
// docs/architecture.md 4.11); the report carries the bounds, the level is the schema's.
export const INTERVAL_LEVEL = "80%";

/** "likely 5–9 (80%)", "likely 10 (80%)", or null when the report has no interval. */
export function intervalText(interval) {
  if (!Array.isArray(interval) || interval.length !== 2) return null;
  const [lo, hi] = interval;
  return `likely ${lo === hi ? lo : `${lo}–${hi}`} (${INTERVAL_LEVEL})`;
}

/** "score 7/10, likely 5–9 (80%)": the result's headline, also said in the status line. */
export function scoreText(report) {
  const interval = intervalText(report.score_interval);
  return `score ${report.score}/10${interval ? `, ${interval}` : ""}`;
}

const POLICIES = {
  stepmath: "no credit for work built on an error",
  follow_through: "follow-through credit",
};

/** The score under the policy the report does not follow, when it differs. */
function otherPolicy(report) {
  const scores = report.scores ?? {};
  const other = Object.entries(scores).find(([p, v]) => p !== report.scoring_policy
                                                    && v.score !== report.score);
  return other ? ` · ${other[1].score}/10 with ${POLICIES[other[0]] ?? other[0]}` : "";
}

/** The headline: the score, its interval and the grade in plain words. */
function headline(report) {
  if (typeof report.score !== "number") return null;
  const interval = intervalText(report.score_interval);
  const policy = POLICIES[report.scoring_policy];
  return el("section", { class: "headline", "aria-label": "Grade" },
    card("score", "Score", `${report.score}/10`,
         interval ? [el("span", { class: "interval" }, interval), el("br")] : "",
         `${report.problem_type}${policy ? ` · ${policy}` : ""}${otherPolicy(report)}`),
    report.summary ? el("p", { class: "plain-summary" }, report.summary) : null);
}

/** HCRS, ReasonEval, the quadrant and the other figures: for those who want them. */
function figures(report) {
  if (typeof report.score !== "number") return null;
  const hcrs = report.hcrs ?? {};
  const cards = [
    card("raw", "Eq. 1", num(report.score_raw),
         `binary ${report.score_binary}`,
         typeof report.score_expected === "number" ? ` · expected ${num(report.score_expected)}` : ""),
    card("hcrs", "HCRS", num(hcrs.score),
         `base ${num(hcrs.base)} − format ${num(hcrs.format_penalty)} − hazard ${num(hcrs.hazard_penalty)}`,
         typeof hcrs.first_error === "number" ? ` · first error: step ${hcrs.first_error}` : ""),
    card("holistic", "Holistic", num(report.holistic), "process (HCRS) and answer together"),
    card("quadrant", "Quadrant", QUADRANTS[report.quadrant] ?? String(report.quadrant),
         `lucky guess ${yesNo(report.lucky_guess)} · hallucination ${yesNo(report.hallucination)}`),
  ];
  if (report.reasoneval) {
    cards.push(card("reasoneval", "ReasonEval validity", num(report.reasoneval.validity),
                    `redundancy ${num(report.reasoneval.redundancy)}`));
  }
  const guess = report.likely_first_error;
  if (guess) {
    cards.push(card("likely-first-error", "Likely first error",
                    typeof guess.step === "number" ? `step ${guess.step}` : "none",
                    `probability ${num(guess.probability)}`));
  }
  if (report.alignment) {
    const a = report.alignment;
    cards.push(card("alignment", "Alignment", num(a.score),
                    typeof a.divergence_step === "number" ? `diverges at step ${a.divergence_step}` : "no divergence"));
  }
  if (report.difficulty) {
    cards.push(card("difficulty", "Difficulty", `level ${report.difficulty.level}`,
                    `process evaluated ${yesNo(report.difficulty.process_evaluated)}`));
  }
  return el("details", { class: "figures" },
    el("summary", {}, "Details: Eq. 1, HCRS, ReasonEval, quadrant"),
    el("section", { class: "summary", "aria-label": "Scores" }, ...cards));
}

const VERDICT = { true: ["correct", "✓"], false: ["wrong", "✗"], null: ["undecided", "?"] };

function verdictWord(value) {
  return VERDICT[String(value ?? null)][0];
}

function answer(report) {
  const a = report.answer;
  if (!a) return null;
  const [word, mark] = VERDICT[String(a.correct ?? null)];
  const refs = a.reference?.length
    ? a.reference.flatMap((r, i) => [i ? " or " : "", el("code", {}, r)]) : ["(none given)"];
  const checks = [];
  if (a.symbolic !== undefined && a.symbolic !== null) checks.push(`symbolic: ${verdictWord(a.symbolic)}`);
  if (a.llm !== undefined && a.llm !== null) checks.push(`LLM: ${verdictWord(a.llm)}`);
  return el("section", { class: `answer verdict-${word}`, "aria-label": "Final answer" },
    el("h2", {}, "Final answer"),
    el("p", {},
       el("span", { class: "verdict" }, el("span", { "aria-hidden": "true" }, mark), ` ${word}`),
       ` by ${a.method ?? "none"}: `, a.extracted != null ? el("code", {}, a.extracted) : "no answer found",
       a.reference !== undefined ? [" · reference ", ...refs] : ""),
    checks.length ? el("p", { class: "detail" }, checks.join(" · ")) : null);
}

/** The needs-review banner: the report's reasons, in its words (their codes as data). */
function reviewBanner(report) {
  if (!report.needs_review) return null;
  const reasons = report.review_reasons ?? [];
  return el("section", { class: "banner review", "aria-labelledby": "review-banner-title" },
    el("h2", { id: "review-banner-title" }, "Needs review"),
    el("p", {}, "This grade may be wrong; a teacher should look at it",
       reasons.length ? ":" : "."),
    reasons.length
      ? el("ul", {}, ...reasons.map((r) => el("li", { dataset: { code: r.code } }, r.message)))
      : null);
}

function banners(report, final) {
  const meta = report.meta ?? {};
  const out = [reviewBanner(report)];
  if (meta.degraded) {
    out.push(el("div", { class: "banner degraded", role: "alert" },
      el("strong", {}, "Degraded grade. "),
      final ? "The LLM part of this grade failed, so these labels come from the offline judge. "
              + "The warnings below say what went wrong."
            : "The LLM part is failing; the grade falls back to the offline judge."));
  }
  if (meta.warnings?.length) {
    out.push(el("section", { class: "warnings", "aria-label": "Warnings" },
      el("h2", {}, `Warnings (${meta.warnings.length})`),
      el("ul", {}, ...meta.warnings.map((w) => el("li", {}, w)))));
  }
  return out;
}

function treeSection(report, { onSelect, width }) {
  const tree = report.error_tree;
  if (!tree) return null;
  const labels = new Map((report.steps ?? []).filter((s) => s.label).map((s) => [s.index, s.label]));
  const reasons = new Map((report.steps ?? []).filter((s) => s.reason).map((s) => [s.index, s.reason]));
  const firstError = report.hcrs?.first_error ?? null;
  const empty = layoutTree(tree).nodes.length === 0;
  return el("section", { class: "tree", "aria-label": "Tree-of-Error" },
    el("h2", {}, "Tree-of-Error"),
    empty ? el("p", { class: "no-errors" }, "No wrong step: the tree is empty.")
          : el("figure", {},
               drawTree(tree, { labels, reasons, firstError, onSelect, maxWidth: width }),
               el("figcaption", {},
                  el("span", { class: "chains" }, `Chains: ${chainsText(tree)}`),
                  el("span", { class: "legend" },
                     el("span", { class: "key incorrect" }, "incorrect"),
                     el("span", { class: "key meaningless" }, "meaningless"),
                     el("span", { class: "key first" }, "first error"),
                     " · an arrow means “is used by”"))));
}

function stepsSection(report, final, idPrefix) {
  const steps = report.steps ?? [];
  if (!steps.length) return null;
  const roots = new Set(report.error_tree?.roots ?? []);
  const firstError = report.hcrs?.first_error ?? null;
  return el("section", { class: "steps", "aria-label": "Steps" },
    el("h2", {}, `Steps (${steps.length})`),
    el("ol", { class: "step-list", lang: report.language === "zh" ? "zh-Hans" : null },
       ...steps.map((s) => stepCard(s, { firstError, roots, provisional: !final, idPrefix }))));
}

function alignmentSection(report) {
  const a = report.alignment;
  if (!a) return null;
  const pairs = (a.pairs ?? []).map((p) => el("li", {},
    `reference ${p.reference.join("+")} ↔ solution ${p.solution.join("+")} (similarity ${num(p.similarity)})`));
  return el("details", { class: "alignment" },
    el("summary", {}, `Alignment to the reference: ${num(a.score)}`),
    pairs.length ? el("ul", {}, ...pairs) : null,
    el("p", {}, `insertions: ${a.insertions?.join(", ") || "none"} · deletions: `
                + `${a.deletions?.join(", ") || "none"}`));
}

/** What this key's memory of the problem held and what of it the grade used (`meta.memory`). */
function memorySection(report) {
  const m = report.meta?.memory;
  if (!m) return null;
  const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
  const when = m.last_corrected ? new Date(`${m.last_corrected.replace(/Z?$/, "Z")}`) : null;
  const facts = [
    ["remembered", `${plural(m.solutions, "corrected solution", "corrected solutions")}, `
                   + `${m.accepted_solutions} accepted whole, `
                   + plural(m.mistakes, "known mistake", "known mistakes")],
    ["last corrected", when && !Number.isNaN(when.getTime()) ? when.toISOString().slice(0, 16).replace("T", " ") + " UTC" : null],
    ["read against", m.aligned_solution ? `accepted solution ${m.aligned_solution}` : "no accepted solution"],
    ["reference answer", m.reference_answer ? "taken from the accepted solutions" : null],
    ["leaves the accepted solutions", m.divergence_step ? `at step ${m.divergence_step}` : null],
    ["findings", String(m.findings ?? 0)],
  ].filter(([, v]) => v);
  return el("section", { class: "memory", "aria-labelledby": "memory-title",
                         dataset: { solutions: String(m.solutions) } },
    el("h2", { id: "memory-title" }, "Problem memory"),
    el("p", {}, "Graded against what your corrections of this problem taught."),
    el("dl", {}, ...facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)])));
}

function jsonBlock(value) {
  return el("pre", {}, JSON.stringify(value, null, 2));
}

function metaSection(report) {
  const meta = report.meta;
  if (!meta) return null;
  const rows = [
    ["mode", meta.mode],
    ["LLM calls", meta.llm_calls],
    ["tokens", meta.prompt_tokens !== undefined ? `${meta.prompt_tokens} prompt, ${meta.completion_tokens} completion` : undefined],
    ["time", meta.elapsed_ms !== undefined ? `${num(meta.elapsed_ms, 1)} ms` : undefined],
    ["versions", meta.versions && Object.entries(meta.versions).map(([k, v]) => `${k} ${v}`).join(", ")],
    ["grade id", meta.grade_id ?? undefined],
  ].filter(([, v]) => v !== undefined && v !== "");
  const nodes = Object.entries(meta.node_ms ?? {});
  const failed = meta.failed_checks;
  const other = Object.entries(meta).filter(([k]) => !KNOWN_META.has(k));
  return el("details", { class: "meta" },
    el("summary", {}, "Run details"),
    el("dl", {}, ...rows.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, String(v))])),
    nodes.length ? el("p", {}, "node times: ",
                      nodes.map(([n, ms]) => `${n} ${num(ms, 1)} ms`).join(", ")) : null,
    Array.isArray(failed) && failed.length
      ? el("div", { class: "failed-checks" }, el("h3", {}, "Failed checks"),
           el("ul", {}, ...failed.map((f) => el("li", {}, typeof f === "string" ? f : JSON.stringify(f)))))
      : null,
    ...other.map(([k, v]) => el("div", { class: "meta-other" }, el("h3", {}, k), jsonBlock(v))));
}

/**
 * Draw `report` into `root`. `final`: the full report has arrived (else the labels are
 * provisional); `onSelect(step)` jumps to a step; `width` is the room for the tree;
 * `idPrefix` keeps step ids unique when two reports are in the page (`${idPrefix}step-3`).
 */
export function renderReport(root, report, { final = true, onSelect = () => {}, width = 800,
                                             idPrefix = "" } = {}) {
  fill(root,
       ...banners(report, final),
       headline(report),
       answer(report),
       final ? memorySection(report) : null,
       treeSection(report, { onSelect, width }),
       stepsSection(report, final, idPrefix),
       figures(report),
       final ? alignmentSection(report) : null,
       final ? metaSection(report) : null);
  root.dataset.state = final ? "final" : "live";
}
