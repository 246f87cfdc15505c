"""`python -m eval_sets.calibrate.uncertainty --data ../shared/data [--out FILE] [--cache FILE] [--llm-seeds S ...]`

`python -m eval_sets.calibrate` runs this after fitting the step model (`refit`); this entry
point refits the statistics alone on the step model already in the calibration file. Fits the
score-interval model of `scoring.score.uncertainty` (Mondrian, locally weighted split conformal
prediction: Vovk et al. 2005; Lei et al. 2018; out-of-fold residuals as in CV+, Barber et al.
2021; nominal levels set for 80% pooled coverage with a floor per cell) on the FIT half of
StepMathBench dev, offline and in LLM mode, and reports on both halves: interval coverage and
width per group, the share flagged for review, Corr and MAE on the grades not flagged, the
plainer baselines the issue names, and the step ECE of P(wrong) with a reliability table.

Every item is graded on the human segmentation (`solution_steps`) with its reference answer, so
that step P(wrong) lines up with the human step labels: offline, and in LLM mode against the
label fake (human labels with seeded misses and false alarms, `LLM_MISS` / `LLM_FALSE_ALARM`)
once per seed of `LLM_SEEDS`, for the LLM-mode cells. Folds inside the fit half are by problem,
like the halves: five solutions of one problem, and the seeds of one item, never straddle a fold.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from eval_sets.halves import HALVES, Half, half_of
from eval_sets.loaders.rows import as_text, read_records
from eval_sets.loaders.stepmath import request_fields
from eval_sets.metrics.risk import corr_mae, coverage_of, reliability
from eval_sets.runner.tables import Cell as TableCell
from eval_sets.runner.tables import Table, to_markdown
from scoring.judge.calibration import DEFAULT_PATH, Calibration, load_calibration
from scoring.schema import GradeReport, GradeRequest, ReviewCode
from scoring.score.aggregate import parse_human_label
from scoring.score.uncertainty import (
    CELL_NAMES,
    FALLBACK,
    SECTION,
    UNCERTAINTY_FORMAT,
    Cell,
    CellName,
    GradeFeatures,
    UncertaintyError,
    UncertaintyModel,
    assess,
    cell_of,
    features_of,
    integer_interval,
    uncertainty_of,
)

COVERAGE = 0.8
FOLDS = 5
MIN_CELL = 20  # fewer grades than this: the cell borrows its parent's statistics
MIN_SPREAD = 0.5  # points; keeps a near-perfect cell from dividing by almost nothing
NOMINAL_LEVELS = tuple(round(0.4 + 0.01 * i, 2) for i in range(56))  # 0.40 .. 0.95
FLOOR = 0.75  # out-of-fold coverage every cell keeps when the pooled target is met
LLM_SEEDS = (0, 1, 2)  # label-fake seeds pooled for the LLM-mode cells
LLM_MISS = 0.3  # the label fake's reliability the LLM-mode cells are fitted at: the defaults of
LLM_FALSE_ALARM = 0.1  # STEPGRADE_LLM_SENSITIVITY (1 - miss) and STEPGRADE_LLM_FALSE_ALARM
TARGET_UNFLAGGED = 0.55  # max_width is the smallest width leaving this share unflagged (fit half)


@dataclass(frozen=True)
class Graded:
    """One dev item graded offline, with what the humans said."""

    uid: str
    problem: str
    half: Half
    human: int
    wrong: tuple[bool | None, ...]  # human step labels on the same steps
    p_wrong: tuple[float | None, ...]
    language: str
    features: GradeFeatures


def fold_of(problem: str, folds: int = FOLDS) -> int:
    """A fold inside a half, by problem (another byte of the same hash as `half_of`)."""
    return hashlib.sha1(re.sub(r"\s+", " ", problem).strip().encode("utf-8")).digest()[1] % folds


def conformal_bounds(values: Sequence[float], coverage: float = COVERAGE) -> tuple[float, float] | None:
    """Split-conformal quantiles of a central interval: the ceil((n+1)(1-a/2))-th smallest
    value above, the floor((n+1)a/2)-th below (Lei et al. 2018, Algorithm 2, one tail each).

    None when there are too few values for a finite bound at this coverage.
    """
    ordered = sorted(values)
    n = len(ordered)
    alpha = 1.0 - coverage
    low = math.floor((n + 1) * alpha / 2 + 1e-9)
    high = math.ceil((n + 1) * (1 - alpha / 2) - 1e-9)
    if low < 1 or high > n:
        return None
    return ordered[low - 1], ordered[high - 1]


def _line(xs: Sequence[float], ys: Sequence[float]) -> tuple[float, float]:
    """Least squares y = a + b x; (mean, 0) when x does not vary."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return my, 0.0
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def _centre(scores: Sequence[float], humans: Sequence[float]) -> tuple[float, float]:
    """The human score as a line in the grade's score; the slope kept in [0, 1]: a grade that
    rises when humans fall is noise at these sizes, and a slope above 1 would amplify it."""
    b = min(1.0, max(0.0, _line(scores, humans)[1]))
    return sum(humans) / len(humans) - b * sum(scores) / len(scores), b


@dataclass(frozen=True)
class CellFit:
    """A cell fitted but for its level: the centre on all its grades, the spread, and the
    out-of-fold residuals the conformal quantiles are read from, with what each held-out grade
    would get (`held[i]` = (member index, score, human, out-of-fold centre, spread))."""

    n: int
    intercept: float
    slope: float
    spread0: float
    spread1: float
    normalised: tuple[float, ...]
    held: tuple[tuple[int, int, int, float, float], ...]

    def bounds(self, level: float) -> tuple[float, tuple[float, float]] | None:
        """The conformal quantiles at `level`, or at the highest nominal level below it with
        finite bounds (a small cell has none at high levels); None if there is none."""
        for candidate in sorted((v for v in NOMINAL_LEVELS if v <= level + 1e-9), reverse=True):
            found = conformal_bounds(self.normalised, candidate)
            if found is not None:
                return candidate, found
        return None

    def covered(self, level: float) -> dict[int, bool]:
        """Member index -> whether its integer interval at `level` holds the human score both
        built out of fold (its fold's centre and spread) and as shipped (the centre and spread
        fit on the whole cell). Rounding to integers makes an interval jump by a point when its
        bound crosses an integer; asking both keeps a level that only holds because the fold
        centres fell on the lucky side of an integer from being chosen."""
        found = self.bounds(level)
        if found is None:
            return {i: False for i, *_ in self.held}
        _, (q_lo, q_hi) = found
        out = {}
        for i, score, human, centre, spread in self.held:
            final = self.intercept + self.slope * score
            shipped = integer_interval(score, final, self.spread0 + self.spread1 * abs(score - final),
                                       q_lo, q_hi)
            held_out = integer_interval(score, centre, spread, q_lo, q_hi)
            out[i] = shipped[0] <= human <= shipped[1] and held_out[0] <= human <= held_out[1]
        return out

    def lowest_level(self, coverage: float) -> float:
        """The smallest nominal level whose integer intervals cover `coverage` of the cell out
        of fold; the highest finite one when none does."""
        best = NOMINAL_LEVELS[0]
        for level in NOMINAL_LEVELS:
            found = self.bounds(level)
            if found is None or found[0] < level - 1e-9:
                break
            best = level
            if sum(self.covered(level).values()) >= coverage * len(self.held):
                return level
        return best

    def cell(self, level: float) -> Cell | None:
        """The finished cell at this nominal level."""
        found = self.bounds(level)
        if found is None:
            return None
        chosen, (q_lo, q_hi) = found
        return Cell(self.n, round(self.intercept, 4), round(self.slope, 4), round(self.spread0, 4),
                    round(self.spread1, 4), round(q_lo, 4), round(q_hi, 4), chosen)


def fit_spread(scores: Sequence[int], humans: Sequence[int], folds: Sequence[int], *,
               weighted: bool = True) -> CellFit | None:
    """One cell but for its level: the centre on all its grades, residuals out of fold, the
    spread fitted on them and the normalised residuals. None if the cell is too small."""
    if len(scores) < MIN_CELL:
        return None
    residuals: list[float] = []
    distances: list[float] = []
    held: list[tuple[int, int, int, float]] = []  # (index, score, human, out-of-fold centre)
    for k in sorted(set(folds)):
        train = [i for i, f in enumerate(folds) if f != k]
        test = [i for i, f in enumerate(folds) if f == k]
        if not train:
            return None
        a, b = _centre([scores[i] for i in train], [humans[i] for i in train])
        for i in test:
            centre = a + b * scores[i]
            residuals.append(humans[i] - centre)
            distances.append(abs(scores[i] - centre))
            held.append((i, scores[i], humans[i], centre))
    spread0, spread1 = 1.0, 0.0
    if weighted:
        spread0, spread1 = _line(distances, [abs(r) for r in residuals])
        spread1 = max(0.0, spread1)
        spread0 = max(MIN_SPREAD, spread0)
    spreads = [spread0 + spread1 * d for d in distances]
    a, b = _centre(scores, humans)
    return CellFit(len(scores), a, b, spread0, spread1,
                   tuple(r / s for r, s in zip(residuals, spreads, strict=True)),
                   tuple((*h, s) for h, s in zip(held, spreads, strict=True)))


def fit_cell(scores: Sequence[int], humans: Sequence[int], folds: Sequence[int],
             coverage: float = COVERAGE, *, weighted: bool = True) -> Cell | None:
    """One cell on its own (group-conditional): its quantiles at the smallest nominal level at
    which the finished intervals (integers, widened to hold the score: `integer_interval`)
    cover `coverage` of the cell's grades out of fold. Integer human scores and the widening
    make an interval at the nominal 80% cover more, and only the fit half says how much.
    `fit_model` sets the levels jointly instead (`pooled_levels`)."""
    fitted = fit_spread(scores, humans, folds, weighted=weighted)
    return None if fitted is None else fitted.cell(fitted.lowest_level(coverage))


def pooled_levels(fits: Mapping[str, CellFit], used: Sequence[tuple[str, int]],
                  coverage: float = COVERAGE, floor: float = FLOOR) -> dict[str, float]:
    """The nominal level of every cell: one shared level, the smallest at which the fit half's
    grades, each through the cell it is graded with (`used`: cell name, member index), are
    covered out of fold at `coverage` POOLED, each cell raised to at least the level at which
    it alone covers `floor`.

    A cell that cannot cover less than it does (a right answer's [10, 10] holds most human
    scores at any level) is offset by the others, down to their floor. This targets marginal
    coverage (Lei et al. 2018, section 2) rather than the group-conditional coverage of a
    Mondrian predictor fitted per cell (Vovk 2012, "Conditional validity of inductive conformal
    predictors", section 4): per cell only the floor is targeted."""
    floors = {name: fit.lowest_level(floor) for name, fit in fits.items()}
    levels = dict(floors)
    for shared in NOMINAL_LEVELS:
        levels = {name: max(shared, floors[name]) for name in fits}
        hits = {name: fit.covered(levels[name]) for name, fit in fits.items()}
        if sum(hits[name][i] for name, i in used) >= coverage * len(used):
            return levels
    return levels


def _members(cell: CellName, graded: Sequence[Graded]) -> list[Graded]:
    if cell == "all":
        return list(graded)
    if cell == "unverified":
        return [g for g in graded if g.features.problem_type != "calculation"]
    return [g for g in graded if cell_of(g.features) == cell]


def fit_cells(fit: Sequence[Graded], *, weighted: bool = True, floor: float = FLOOR
              ) -> tuple[dict[str, Cell], dict[str, float]]:
    """The cells with enough of these fit-half grades, their levels set jointly
    (`pooled_levels`), and the out-of-fold coverage they reach (pooled and per cell)."""
    fits: dict[str, CellFit] = {}
    index: dict[str, dict[str, int]] = {}  # cell -> uid -> member index
    for name in CELL_NAMES:
        members = _members(name, fit)
        fitted = fit_spread([g.features.score for g in members], [g.human for g in members],
                            [fold_of(g.problem) for g in members], weighted=weighted)
        if fitted is not None:
            fits[name] = fitted
            index[name] = {g.uid: i for i, g in enumerate(members)}
    if "all" not in fits:
        return {}, {}
    used = []
    for g in fit:
        name = next(c for c in FALLBACK[cell_of(g.features)] if c in fits)
        used.append((name, index[name][g.uid]))
    levels = pooled_levels(fits, used, COVERAGE, floor)
    hits = {name: fit.covered(levels[name]) for name, fit in fits.items()}
    oof = {"pooled": round(sum(hits[n][i] for n, i in used) / len(used), 4),
           **{n: round(sum(h.values()) / len(h), 4) for n, h in hits.items()}}
    cells = {name: cell for name, fitted in fits.items()
             if (cell := fitted.cell(levels[name])) is not None}
    return cells, oof


def fit_model(graded: Sequence[Graded], *, weighted: bool = True,
              target_unflagged: float = TARGET_UNFLAGGED, floor: float = FLOOR) -> UncertaintyModel:
    """The offline cells on the offline grades of the fit half, the LLM-mode cells on its grades
    whose steps a model judged (when enough), then the width above which a grade is flagged
    (chosen on the offline grades). LLM grades that fell back to the offline checks (degraded)
    are read by the offline cells and fit neither."""
    fit = [g for g in graded if g.half == "fit"]
    offline = [g for g in fit if g.features.mode == "offline"]
    judged = [g for g in fit if g.features.step_logic_checked]
    cells, oof = fit_cells(offline, weighted=weighted, floor=floor)
    if "all" not in cells:
        raise UncertaintyError(f"the fit half has fewer than {MIN_CELL} graded StepMathBench items")
    llm_cells, llm_oof = fit_cells(judged, weighted=weighted, floor=floor)
    body = json.dumps({k: vars(v) for k, v in cells.items()}, sort_keys=True) + json.dumps(
        {k: vars(v) for k, v in llm_cells.items()}, sort_keys=True)
    digest = hashlib.sha1(body.encode()).hexdigest()[:10]
    meta: dict[str, object] = {
        "fitted": time.strftime("%Y-%m-%d"), "fitted_on": "StepMathBench dev, fit half, "
        "graded on the human segmentation with the reference answer",
        "method": "Mondrian locally weighted split conformal, out-of-fold residuals; "
                  f"levels for {COVERAGE:.0%} pooled coverage, each cell at least {floor:.0%}",
        "folds": FOLDS, "min_cell": MIN_CELL, "target_unflagged": target_unflagged,
        "pooled_target": COVERAGE, "cell_floor": floor, "out_of_fold_coverage": oof,
        "grades": {n: c.n for n, c in cells.items()}}
    if llm_cells:
        seeds = sorted({g.uid.rsplit("#llm", 1)[1] for g in judged if "#llm" in g.uid})
        meta["llm"] = {"miss": LLM_MISS, "false_alarm": LLM_FALSE_ALARM, "seeds": seeds,
                       "judge": "label fake (eval_sets/fakes/label_server.py), human labels "
                                "with seeded misses and false alarms",
                       "out_of_fold_coverage": llm_oof,
                       "grades": {n: c.n for n, c in llm_cells.items()}}
    model = UncertaintyModel(f"{UNCERTAINTY_FORMAT}-{digest}", COVERAGE, cells, 10, meta=meta,
                             llm_cells=llm_cells)
    for width in range(11):
        trial = replace(model, max_width=width)
        if 1 - sum(assess(g.features, trial).needs_review for g in offline) / len(offline) >= target_unflagged:
            return trial
    return model


def percentile_baseline(graded: Sequence[Graded]) -> Callable[[Graded], tuple[int, int]]:
    """The issue's plainest interval: per group (answer right, answer wrong, proof,
    open-ended), the 10th and 90th percentiles of the fit half's residuals around the score."""
    def group(g: Graded) -> str:
        return "wrong" if cell_of(g.features) == "no_verdict" else cell_of(g.features)
    bounds: dict[str, tuple[float, float]] = {}
    fit = [g for g in graded if g.half == "fit"]
    for name in {group(g) for g in fit}:
        res = sorted(g.human - g.features.score for g in fit if group(g) == name)
        bounds[name] = (_percentile(res, 0.1), _percentile(res, 0.9))
    pooled = sorted(g.human - g.features.score for g in fit)
    fallback = (_percentile(pooled, 0.1), _percentile(pooled, 0.9))

    def interval(g: Graded) -> tuple[int, int]:
        lo, hi = bounds.get(group(g), fallback)
        s = g.features.score
        return max(0, min(s, math.floor(s + lo))), min(10, max(s, math.ceil(s + hi)))
    return interval


def _percentile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)




def plain_rule(graded: Sequence[Graded], share: float = 0.5) -> list[bool]:
    """The issue's plain flag: proofs and open-ended solutions, then the longest wrong-answer
    solutions until `share` of the grades are flagged."""
    flags = [g.features.problem_type != "calculation" for g in graded]
    wrong = sorted((i for i, g in enumerate(graded) if cell_of(g.features) in ("wrong", "no_verdict")),
                   key=lambda i: -graded[i].features.steps)
    for i in wrong:
        if sum(flags) >= share * len(graded):
            break
        flags[i] = True
    return flags



def grade_stepmath(path: Path, cache: Path | None, calibration: Calibration, *,
                   own_steps: bool = False, llm_seed: int | None = None) -> list[Graded]:
    """Grade every StepMathBench dev item with `calibration`'s step model (or read the reports
    cached under the same calibration version and mode): offline, or with `llm_seed` in LLM
    mode against the label fake of that seed (misses `LLM_MISS` of the wrong steps, calls
    `LLM_FALSE_ALARM` of the right ones wrong), the decision layer told that reliability.

    `own_steps`: grade the free text on the grader's own segmentation, as the benchmark does
    (no step labels then: they belong to the human steps); to check the fitted model transfers.
    """
    tag = "offline" if llm_seed is None else f"llm{llm_seed}"
    reports: dict[str, dict[str, object]] = {}
    others: list[str] = []  # cached records of other versions or modes, kept
    if cache is not None and cache.is_file():
        for line in cache.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("calibration") == calibration.version and record.get("tag", "offline") == tag:
                reports[record["uid"]] = record["report"]
            else:
                others.append(line)
    rows = [row for _, row in read_records(path)]
    missing = [row for row in rows if str(row["uid"]) not in reports]
    if missing:
        reports.update(_grade(missing, calibration, own_steps, llm_seed, rows))
        if cache is not None:
            cache.write_text("".join(line + "\n" for line in others) + "".join(
                json.dumps({"uid": k, "calibration": calibration.version, "tag": tag,
                            "report": v}, ensure_ascii=False) + "\n"
                for k, v in reports.items()), encoding="utf-8")
    graded = []
    for row in rows:
        report = GradeReport.model_validate(reports[str(row["uid"])])
        labels = [parse_human_label(s) for s in row["gold_step_score"]]
        wrong: tuple[bool | None, ...] = tuple(lab == "incorrect" for lab in labels)
        p_wrong = tuple(s.p_wrong for s in report.steps)
        if own_steps or len(p_wrong) != len(wrong):  # steps not the humans': no step labels
            wrong = (None,) * len(p_wrong)
        uid = str(row["uid"]) if llm_seed is None else f"{row['uid']}#llm{llm_seed}"
        graded.append(Graded(uid, as_text(row["question"]), half_of(as_text(row["question"])),
                             int(row["gold_score"]), wrong, p_wrong, report.language,
                             features_of(report)))
    return graded


def _grade(missing: Sequence[dict[str, Any]], calibration: Calibration, own_steps: bool,
           llm_seed: int | None, rows: Sequence[dict[str, Any]]) -> dict[str, dict[str, object]]:
    """The reports of `missing`, graded offline or against the label fake of `llm_seed`
    (served in-process on 127.0.0.1 from all `rows`)."""
    # Only when grading: the cached path needs no graph.
    from agent.context import Context
    from agent.grader import Grader
    from scoring.judge import JudgeConfig, Reliability

    def grade_all(grader: Grader, mode: Literal["offline", "llm"]) -> dict[str, dict[str, object]]:
        out: dict[str, dict[str, object]] = {}
        for row in missing:
            request = GradeRequest(**request_fields(row, human_steps=not own_steps), mode=mode)
            out[str(row["uid"])] = grader.grade(request).model_dump(mode="json")
        return out

    if llm_seed is None:
        return grade_all(Grader(Context(judge=JudgeConfig(calibration=calibration),
                                        uncertainty=None)), "offline")
    from agent.llm.client import LlmClient
    from agent.llm.config import LlmConfig
    from eval_sets.fakes.label_oracle import ErrorRates, LabelOracle
    from eval_sets.fakes.openai_server import FakeOpenAI

    oracle = LabelOracle(rows, ErrorRates(LLM_MISS, LLM_FALSE_ALARM, llm_seed))
    with FakeOpenAI(oracle) as server:
        judge = JudgeConfig(calibration=calibration,
                            reliability=Reliability(1.0 - LLM_MISS, LLM_FALSE_ALARM))
        client = LlmClient(LlmConfig(base_url=server.base_url, model="label-fake",
                                     api_key="not-needed"))
        return grade_all(Grader(Context(judge=judge, uncertainty=None, llm=client,
                                        llm_model="label-fake")), "llm")


@dataclass
class _Rows:
    """A table being filled, row by row."""

    key: str
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[TableCell, ...]] = field(default_factory=list)

    def add(self, *row: TableCell) -> None:
        self.rows.append(row)

    def table(self) -> Table:
        return Table(self.key, self.title, self.columns, tuple(self.rows))


GROUPS: dict[str, Callable[[Graded], bool]] = {
    "all": lambda g: True,
    "calculation": lambda g: g.features.problem_type == "calculation",
    "answer right": lambda g: cell_of(g.features) == "right",
    "answer wrong": lambda g: cell_of(g.features) in ("wrong", "no_verdict"),
    "proof": lambda g: g.features.problem_type == "proof",
    "open-ended": lambda g: g.features.problem_type == "open_ended",
}


def report_tables(graded: Sequence[Graded], model: UncertaintyModel,
                  plain: UncertaintyModel, mode: str = "") -> list[Table]:
    """The figures of the issue's "Done when", on both halves (`mode`: a label of the grades,
    "LLM mode ..." for those graded against the label fake, in the tables' keys and titles)."""
    suffix = f" ({mode})" if mode else ""
    key = "_llm" if mode else ""
    baseline = percentile_baseline(graded)
    reviews = {g.uid: assess(g.features, model) for g in graded}
    plain_reviews = {g.uid: assess(g.features, plain) for g in graded}
    cover = _Rows(f"interval{key}", "80% interval: coverage of the human score / mean width (hi - lo), "
                  f"per group, and the share flagged for review; fitted on the fit half{suffix}", ("half", "group", "items", "conformal",
                  "width", "flagged", "unweighted", "width", "baseline p10-p90", "width"))
    for half in HALVES:
        for name, test in GROUPS.items():
            items = [g for g in graded if g.half == half and test(g)]
            if not items:
                continue
            humans = [g.human for g in items]
            row: list[TableCell] = [half, name, len(items)]
            for intervals in ([reviews[g.uid].score_interval for g in items],
                              [plain_reviews[g.uid].score_interval for g in items],
                              [baseline(g) for g in items]):
                c, w = coverage_of(intervals, humans)
                row += [f"{100 * c:.1f}%", f"{w:.2f}"]
                if len(row) == 5:
                    flagged = sum(reviews[g.uid].needs_review for g in items) / len(items)
                    row.append(f"{100 * flagged:.1f}%")
            cover.add(*row)
    risk = _Rows(f"risk{key}", "Grades not flagged: share, Corr and MAE of score against human; "
                 f"the issue's plain rule (proofs, then the longest wrong answers, to 50%) beside{suffix}",
                 ("half", "items", "unflagged", "Corr", "MAE", "Corr all", "MAE all",
                  "plain unflagged", "plain Corr", "plain MAE", "proofs flagged"))
    for half in HALVES:
        items = [g for g in graded if g.half == half]
        kept = [(float(g.features.score), float(g.human)) for g in items if not reviews[g.uid].needs_review]
        flags = plain_rule(items)
        plain_kept = [(float(g.features.score), float(g.human)) for g, f in zip(items, flags) if not f]
        proofs = [g for g in items if g.features.problem_type == "proof" and not g.features.step_logic_checked]
        corr, mae = corr_mae(kept)
        corr_all, mae_all = corr_mae([(float(g.features.score), float(g.human)) for g in items])
        pcorr, pmae = corr_mae(plain_kept)
        risk.add(half, len(items), f"{100 * len(kept) / len(items):.1f}%", f"{corr:.1f}",
                 f"{mae:.2f}", f"{corr_all:.1f}", f"{mae_all:.2f}",
                 f"{100 * len(plain_kept) / len(items):.1f}%", f"{pcorr:.1f}", f"{pmae:.2f}",
                 f"{100 * sum(reviews[g.uid].needs_review for g in proofs) / max(1, len(proofs)):.0f}%")
    reasons = _Rows(f"reasons{key}", f"Review reasons (a grade may have several){suffix}",
                    ("half", "reason", "grades"))
    for half in HALVES:
        counts: dict[ReviewCode, int] = {}
        for g in graded:
            if g.half == half:
                for code, _ in reviews[g.uid].reasons:
                    counts[code] = counts.get(code, 0) + 1
        for code, n in sorted(counts.items()):
            reasons.add(half, code, n)
    ece = _Rows(f"ece{key}", "Step P(wrong) against the human step labels (human segmentation): "
                f"ECE over 10 equal bins, per language and problem type, and the reliability table{suffix}",
                ("half", "language", "type", "bin", "steps", "mean P(wrong)", "wrong rate", "ECE"))
    for half in HALVES:
        for language in sorted({g.language for g in graded}):
            for kind in ("all", "calculation", "proof", "open_ended"):
                pairs = [(p, w) for g in graded if g.half == half and g.language == language
                         and kind in ("all", g.features.problem_type)
                         for p, w in zip(g.p_wrong, g.wrong) if p is not None and w is not None]
                if not pairs:
                    continue
                value, rows = reliability(pairs)
                ece.add(half, language, kind, "all", len(pairs), "", "", f"{value:.3f}")
                for label, n, mean_p, rate in rows:
                    ece.add(half, language, kind, label, n, f"{mean_p:.3f}", f"{rate:.3f}", "")
    return [rows.table() for rows in (cover, risk, reasons, ece)]


def refit(data: Path, calibration: Calibration, cache: Path | None = None, *,
          check_only: bool = False, own_steps: bool = False,
          llm_seeds: Sequence[int] = LLM_SEEDS) -> tuple[UncertaintyModel, list[Table]]:
    """Grade StepMathBench dev with `calibration` offline and, per seed of `llm_seeds`, in LLM
    mode against the label fake; fit the statistics on the fit half (or read the calibration's
    own with `check_only`) and the tables of both halves. The features (the score, P(wrong))
    come from the step model, so this runs after it is fitted."""
    path = data / "stepmathbench_dev.jsonl"
    if not path.is_file():
        raise FileNotFoundError(f"uncertainty: {path} not found")
    graded = grade_stepmath(path, cache, calibration, own_steps=own_steps)
    by_llm: list[Graded] = []
    if not own_steps:
        for seed in llm_seeds:
            by_llm += grade_stepmath(path, cache, calibration, llm_seed=seed)
    plain = fit_model([*graded, *by_llm], weighted=False)
    shipped = uncertainty_of(calibration) if check_only or own_steps else None
    if (check_only or own_steps) and shipped is None:
        raise UncertaintyError(f"calibration {calibration.version} has no uncertainty statistics")
    model = shipped or fit_model([*graded, *by_llm])
    tables = report_tables(graded, model, plain)
    if by_llm:
        tables += report_tables(by_llm, model, plain, f"LLM mode, label fake miss {LLM_MISS:g} "
                                f"false alarm {LLM_FALSE_ALARM:g}, seeds {' '.join(map(str, llm_seeds))} pooled")
    for mode, cells in (("offline", model.cells), ("llm", model.llm_cells)):
        if not cells:
            continue
        fitted = [name for name in CELL_NAMES if name in cells]
        borrowed = {name: next(c for c in FALLBACK[name] if c in cells)
                    for name in CELL_NAMES if name not in cells}
        oof = model.meta.get("out_of_fold_coverage") if mode == "offline" else \
            model.meta.get("llm", {}).get("out_of_fold_coverage")
        tables.append(Table(
            f"uncertainty_cells{'' if mode == 'offline' else '_llm'}",
            f"Score-interval cells ({mode}): grades, centre, spread, quantiles and the nominal "
            f"level chosen for 80% pooled out-of-fold coverage, each cell at least {FLOOR:.0%} "
            "(fit half)",
            ("cell", "n", "intercept", "slope", "spread0", "spread1", "q_lo", "q_hi", "nominal"),
            tuple((k, c.n, c.intercept, c.slope, c.spread0, c.spread1, c.q_lo, c.q_hi, c.nominal)
                  for k in fitted for c in [cells[k]]),
            note=f"borrowing: {borrowed}; max_width {model.max_width}; out-of-fold coverage on "
                 f"the fit half: {oof}"))
    return model, tables


def main(argv: Sequence[str] | None = None) -> int:
    """The uncertainty statistics alone, on the step model of the calibration in `--out`
    (`python -m eval_sets.calibrate` refits both, in order)."""
    parser = argparse.ArgumentParser(prog="python -m eval_sets.calibrate.uncertainty",
                                     description=__doc__.split("\n\n")[1] if __doc__ else None)
    parser.add_argument("--data", type=Path, required=True, help="directory with stepmathbench_dev.jsonl")
    parser.add_argument("--out", type=Path, default=DEFAULT_PATH,
                        help="calibration file to read the step model from and write the "
                             "statistics into (its other sections are kept)")
    parser.add_argument("--cache", type=Path, default=None,
                        help="JSON lines of graded reports to reuse (keep it outside the repository)")
    parser.add_argument("--check-only", action="store_true", help="report the shipped statistics")
    parser.add_argument("--llm-seeds", type=int, nargs="*", default=list(LLM_SEEDS),
                        help="label-fake seeds graded in LLM mode for the LLM-mode cells "
                             "(none: offline cells only)")
    parser.add_argument("--own-steps", action="store_true",
                        help="grade the free text on the grader's own segmentation (implies "
                        "--check-only: the fit is on the human segmentation)")
    args = parser.parse_args(argv)
    try:
        calibration = load_calibration(args.out)
        model, tables = refit(args.data, calibration, args.cache, check_only=args.check_only,
                              own_steps=args.own_steps, llm_seeds=args.llm_seeds)
    except (FileNotFoundError, ValueError) as err:  # CalibrationError, UncertaintyError
        print(f"uncertainty: {err}", file=sys.stderr)
        return 2
    for table in tables:
        print(to_markdown(table))
    if not (args.check_only or args.own_steps):
        updated = with_uncertainty(calibration, model)
        args.out.write_text(json.dumps(updated.to_json(), indent=1, sort_keys=True) + "\n",
                            encoding="utf-8")
        print(f"wrote {args.out} (version {updated.version})")
    return 0


def with_uncertainty(calibration: Calibration, model: UncertaintyModel) -> Calibration:
    """The calibration with these statistics as its `uncertainty` section, versioned anew."""
    sections = {**calibration.sections, SECTION: model.to_json()}
    return replace(calibration, version=calibration_version(calibration, sections),
                   sections=sections)


def calibration_version(calibration: Calibration, sections: dict[str, object]) -> str:
    """The format and a digest of everything fitted: the step models, the kinds and the
    sections (so a refit of any part names a new calibration)."""
    body = {**calibration.to_json(), **sections}
    body.pop("version"), body.pop("meta")
    digest = hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]
    return f"{calibration.version.split('-')[0]}-{digest}"


if __name__ == "__main__":
    raise SystemExit(main())
