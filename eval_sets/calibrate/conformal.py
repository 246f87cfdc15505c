"""The score-interval model of `scoring.score.interval`, fitted on graded items: Mondrian,
locally weighted split conformal prediction (Vovk et al. 2005; Lei et al. 2018; out-of-fold
residuals as in CV+, Barber et al. 2021; nominal levels set for 80% pooled coverage with a floor
per cell). Folds inside the fit half are by problem, like the halves: five solutions of one
problem, and the seeds of one item, never straddle a fold.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from eval_sets.halves import Half
from scoring.score import (
    CELL_NAMES,
    FALLBACK,
    UNCERTAINTY_FORMAT,
    Cell,
    CellName,
    GradeFeatures,
    UncertaintyError,
    UncertaintyModel,
    assess,
    cell_of,
    finish_interval,
    integer_interval,
)

COVERAGE = 0.8
FOLDS = 5
MIN_CELL = 20  # fewer grades than this: the cell borrows its parent's statistics
MIN_SPREAD = 0.5  # points; keeps a near-perfect cell from dividing by almost nothing
NOMINAL_LEVELS = tuple(round(0.4 + 0.01 * i, 2) for i in range(56))  # 0.40 .. 0.95
FLOOR = 0.75  # out-of-fold coverage every cell keeps when the pooled target is met
TARGET_UNFLAGGED = 0.55  # max_width: the smallest width leaving this share unflagged (fit half,
# its groups weighed alike: `balanced_unflagged`)


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
    failed: bool | None = None  # below the pass mark by the human grade (StepMathBench's 0/1)


def fold_of(problem: str, folds: int = FOLDS) -> int:
    """A fold inside a half, by problem (another byte of the same hash as `half_of`)."""
    return hashlib.sha1(re.sub(r"\s+", " ", problem).strip().encode("utf-8")).digest()[1] % folds


def conformal_bounds(
    values: Sequence[float], coverage: float = COVERAGE
) -> tuple[float, float] | None:
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
    # the members' features, when known: their intervals are finished as the report's are
    features: tuple[GradeFeatures, ...] | None = None

    def _finished(self, i: int, interval: tuple[int, int]) -> tuple[int, int]:
        return interval if self.features is None else finish_interval(self.features[i], interval)

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
            shipped = self._finished(
                i,
                integer_interval(
                    score, final, self.spread0 + self.spread1 * abs(score - final), q_lo, q_hi
                ),
            )
            held_out = self._finished(i, integer_interval(score, centre, spread, q_lo, q_hi))
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
        return Cell(
            self.n,
            round(self.intercept, 4),
            round(self.slope, 4),
            round(self.spread0, 4),
            round(self.spread1, 4),
            round(q_lo, 4),
            round(q_hi, 4),
            chosen,
        )


def fit_spread(
    scores: Sequence[int],
    humans: Sequence[int],
    folds: Sequence[int],
    *,
    weighted: bool = True,
    features: Sequence[GradeFeatures] | None = None,
) -> CellFit | None:
    """One cell but for its level: the centre on all its grades, residuals out of fold, the
    spread fitted on them and the normalised residuals (the members' `features`, when given,
    finish their intervals as the report does). None if the cell is too small."""
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
    return CellFit(
        len(scores),
        a,
        b,
        spread0,
        spread1,
        tuple(r / s for r, s in zip(residuals, spreads, strict=True)),
        tuple((*h, s) for h, s in zip(held, spreads, strict=True)),
        None if features is None else tuple(features),
    )


def fit_cell(
    scores: Sequence[int],
    humans: Sequence[int],
    folds: Sequence[int],
    coverage: float = COVERAGE,
    *,
    weighted: bool = True,
) -> Cell | None:
    """One cell on its own (group-conditional): its quantiles at the smallest nominal level at
    which the finished intervals (integers, widened to hold the score: `integer_interval`)
    cover `coverage` of the cell's grades out of fold. Integer human scores and the widening
    make an interval at the nominal 80% cover more, and only the fit half says how much.
    `fit_model` sets the levels jointly instead (`pooled_levels`)."""
    fitted = fit_spread(scores, humans, folds, weighted=weighted)
    return None if fitted is None else fitted.cell(fitted.lowest_level(coverage))


def pooled_levels(
    fits: Mapping[str, CellFit],
    used: Sequence[tuple[str, int]],
    coverage: float = COVERAGE,
    floor: float = FLOOR,
) -> dict[str, float]:
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


def fit_cells(
    fit: Sequence[Graded], *, weighted: bool = True, floor: float = FLOOR
) -> tuple[dict[str, Cell], dict[str, float]]:
    """The cells with enough of these fit-half grades, their levels set jointly
    (`pooled_levels`), and the out-of-fold coverage they reach (pooled and per cell)."""
    fits: dict[str, CellFit] = {}
    index: dict[str, dict[str, int]] = {}  # cell -> uid -> member index
    for name in CELL_NAMES:
        members = _members(name, fit)
        fitted = fit_spread(
            [g.features.score for g in members],
            [g.human for g in members],
            [fold_of(g.problem) for g in members],
            weighted=weighted,
            features=[g.features for g in members],
        )
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
    oof = {
        "pooled": round(sum(hits[n][i] for n, i in used) / len(used), 4),
        **{n: round(sum(h.values()) / len(h), 4) for n, h in hits.items()},
    }
    cells = {
        name: cell
        for name, fitted in fits.items()
        if (cell := fitted.cell(levels[name])) is not None
    }
    return cells, oof


def fit_model(
    graded: Sequence[Graded],
    *,
    weighted: bool = True,
    target_unflagged: float = TARGET_UNFLAGGED,
    floor: float = FLOOR,
    llm_judge: Mapping[str, object] | None = None,
) -> UncertaintyModel:
    """The offline cells on the offline grades of the fit half, the LLM-mode cells on its grades
    whose steps a model judged (when enough), then the width above which a grade is flagged
    (chosen on the offline grades). LLM grades that fell back to the offline checks (degraded)
    are read by the offline cells and fit neither. `llm_judge` says what judged the LLM-mode
    grades (its reliability); it is recorded in `meta["llm"]` with the seeds named in their uids
    (`#llm<seed>`)."""
    fit = [g for g in graded if g.half == "fit"]
    offline = [g for g in fit if g.features.mode == "offline"]
    judged = [g for g in fit if g.features.step_logic_checked]
    cells, oof = fit_cells(offline, weighted=weighted, floor=floor)
    if "all" not in cells:
        raise UncertaintyError(f"the fit half has fewer than {MIN_CELL} graded StepMathBench items")
    llm_cells, llm_oof = fit_cells(judged, weighted=weighted, floor=floor)
    body = json.dumps({k: vars(v) for k, v in cells.items()}, sort_keys=True) + json.dumps(
        {k: vars(v) for k, v in llm_cells.items()}, sort_keys=True
    )
    digest = hashlib.sha1(body.encode()).hexdigest()[:10]
    meta: dict[str, object] = {
        "fitted": time.strftime("%Y-%m-%d"),
        "fitted_on": "StepMathBench dev, fit half, "
        "graded on the human segmentation with the reference answer",
        "method": "Mondrian locally weighted split conformal, out-of-fold residuals; "
        f"levels for {COVERAGE:.0%} pooled coverage, each cell at least {floor:.0%}",
        "folds": FOLDS,
        "min_cell": MIN_CELL,
        "target_unflagged": target_unflagged,
        "pooled_target": COVERAGE,
        "cell_floor": floor,
        "out_of_fold_coverage": oof,
        "grades": {n: c.n for n, c in cells.items()},
    }
    if llm_cells:
        seeds = sorted({g.uid.rsplit("#llm", 1)[1] for g in judged if "#llm" in g.uid})
        meta["llm"] = {
            **(llm_judge or {}),
            "seeds": seeds,
            "out_of_fold_coverage": llm_oof,
            "grades": {n: c.n for n, c in llm_cells.items()},
        }
    model = UncertaintyModel(
        f"{UNCERTAINTY_FORMAT}-{digest}", COVERAGE, cells, 10, meta=meta, llm_cells=llm_cells
    )
    for width in range(11):
        trial = replace(model, max_width=width)
        if balanced_unflagged(offline, trial) >= target_unflagged:
            return trial
    return model


def balanced_unflagged(graded: Sequence[Graded], model: UncertaintyModel) -> float:
    """The share of `graded` that `model` leaves unflagged, its three groups weighed alike:
    right answers, wrong answers, and the grades that rest on their steps (proofs, open-ended
    solutions, no answer verdict). Weighed as the fit half mixes them, the share would hold only
    for that mix: where wrong answers or proofs are commoner, as in a class that struggles, a
    width fitted to flag a share of the fit half flags more."""
    groups: dict[str, list[bool]] = {}
    for g in graded:
        kind = cell_of(g.features)
        group = kind if kind in ("right", "wrong") else "steps"
        groups.setdefault(group, []).append(not assess(g.features, model).needs_review)
    return sum(sum(flags) / len(flags) for flags in groups.values()) / len(groups)
