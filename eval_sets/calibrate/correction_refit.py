"""The calibration refitted on corrected grades (docs/architecture.md 4.10, 4.11).

The shipped calibration holds statistics and weights only, no rows, so "shipped data plus
corrections" is read as a maximum a posteriori refit (Bishop 2006, "Pattern Recognition and
Machine Learning", section 4.5.1, Laplace's approximation): the shipped fit is summarised by a
Gaussian prior centred on the shipped weights, with a precision of `n0 * v` per weight, where
`n0` is the number of labelled steps the shipped model was fitted on (the `steps` of its
recalibration map) and `v` the mean Bernoulli variance p(1 - p) of the corrections' steps under
the shipped model (the Fisher information one step carries about a weight, for an indicator
feature). Each corrected step counts `weight` times in the likelihood: at `weight = 1` a
corrected step is worth one shipped step, at 8 eight of them.

The score interval (`scoring.score.interval`) is refitted the same way: the corrected
grades, rescored with the refitted step model, give each cell's statistics
(`eval_sets.calibrate.conformal.fit_cell`), pooled with the shipped cell's by a weighted mean
(`n0` shipped grades against `weight` times the corrected ones).

Only the languages the corrections hold are refitted; every other model, the finding kinds'
statistics and every other section are kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from eval_sets.calibrate.conformal import FOLDS as UNCERTAINTY_FOLDS
from eval_sets.calibrate.conformal import fit_cell
from eval_sets.calibrate.correction_rows import Corrected, fold
from eval_sets.calibrate.fit import decided, verdict_score
from scoring.judge import (
    ANY_TYPE,
    GROUP_FEATURES,
    Calibration,
    StepModel,
    grade_group,
    solution_context,
    step_features,
)
from scoring.schema import StepLabel
from scoring.score import CELL_NAMES, Cell, UncertaintyModel, cell_of, uncertainty_of

SHIFTS: tuple[float, ...] = tuple(round(0.5 * k, 1) for k in range(-6, 7))  # log-odds
LABEL_REFIT = True
MIN_STEPS_PRIOR = 100  # the shipped model's labelled steps when its file does not say


# ------------------------------------------------------------------------ the step model fit


def prior_count(model: StepModel) -> int:
    """The labelled steps the shipped model was fitted on, as its file records them."""
    platt = model.recalibration.get(ANY_TYPE)
    return platt.steps if platt is not None and platt.steps > 0 else MIN_STEPS_PRIOR


def _design(
    model: StepModel, corrected: Sequence[Corrected], names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    rows, labels = [], []
    for c in corrected:
        o = c.observed
        for i, wrong in enumerate(o.solution.wrong):
            if wrong is None:
                continue
            found = step_features(
                o.inp,
                i,
                o.evidence.at(i),
                context=solution_context(o.inp, o.evidence, model.difficulty),
            )
            for name, (low, high) in model.ranges.items():  # as the model reads them
                if name in found:
                    found[name] = min(max(found[name], low), high)
            rows.append([found.get(n, 0.0) for n in names])
            labels.append(float(wrong))
    return np.array(rows, dtype=float).reshape(len(rows), len(names)), np.array(labels)


def map_logistic(
    x: np.ndarray,
    y: np.ndarray,
    prior: np.ndarray,
    precision: float,
    weight: float,
    max_iter: int = 100,
) -> np.ndarray:
    """Maximum a posteriori logistic regression (Newton's method): maximises
    `weight * sum log-likelihood - precision / 2 * ||beta - prior||^2` (Bishop 2006, 4.3.3 and
    4.5.1). `weight = 0` returns the prior."""
    d = len(prior)
    beta = prior.astype(float).copy()
    if weight <= 0 or len(y) == 0:
        return beta
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -30, 30)))
        grad = weight * (x.T @ (y - p)) - precision * (beta - prior)
        hess = weight * (x * (p * (1 - p))[:, None]).T @ x + (precision + 1e-9) * np.eye(d)
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < 1e-8:
            break
    return beta


def refit_labels(model: StepModel, corrected: Sequence[Corrected], weight: float) -> StepModel:
    """The step model's weights refitted on the corrections' step labels (`map_logistic`),
    the shipped weights as the prior; the threshold, decision rule, ranges and recalibration
    maps are kept."""
    names = sorted(model.weights)
    x, y = _design(model, corrected, names)
    if len(y) == 0 or weight <= 0:
        return model
    prior = np.array([model.weights[n] for n in names])
    beta = map_logistic(x, y, prior, prior_precision(model, x), weight)
    return replace(model, weights={n: round(float(b), 4) for n, b in zip(names, beta, strict=True)})


def prior_precision(model: StepModel, x: np.ndarray) -> float:
    """`n0 * v`: the shipped steps times the mean p(1 - p) the shipped model gives the
    corrections' steps (the Fisher information of one step about an indicator's weight)."""
    prior = np.array([model.weights[n] for n in sorted(model.weights)])
    p = 1.0 / (1.0 + np.exp(-np.clip(x @ prior, -30, 30))) if len(x) else np.array([0.5])
    return prior_count(model) * max(float(np.mean(p * (1 - p))), 1e-3)


def refit_score(
    calibration: Calibration, language: str, corrected: Sequence[Corrected], weight: float
) -> StepModel:
    """A level per group of grades (`GROUP_FEATURES`: answer right, answer wrong, no verdict,
    proof, open-ended; the shipped models give them no weight) that brings the offline score
    closest to the teachers' scores, at a Gaussian cost toward no shift: minimises `weight *
    sum |score - teacher's| + n0 v / 2 * ||shift||^2` by coordinate search on a grid (`SHIFTS`);
    the score is a step function of the weights, so no gradient exists.

    The step labels' likelihood is not what a grade is judged by: the shipped weights already
    maximise it, and a refit on it alone moves the score little (docs/review.md, "Recalibration from
    corrections"). A group's level sets how many steps of its grades the decision calls wrong,
    which is what a teacher's score corrects. The groups do not overlap, so each one's shift is
    fitted on its own grades: a shared weight (the bias, or "the answer is wrong", which
    open-ended grades share with calculations) moved every group it touches at once, and the
    search stopped where one group's gain was another's loss.

    Since a group's level is read by its own grades alone, the cost is a sum over the groups
    of each one's own, and each shift is searched on its group's grades only: the smallest
    shift of the lowest cost, one grid pass per group."""
    model = calibration.model(language)
    if weight <= 0 or not corrected:
        return model
    x, _ = _design(model, corrected, sorted(model.weights))
    precision = prior_precision(model, x)

    def shifted(delta: dict[str, float]) -> StepModel:
        moved = {n: round(model.weights.get(n, 0.0) + d, 4) for n, d in delta.items() if d}
        return replace(model, weights={**model.weights, **moved})

    def cost(name: str, value: float, members: Sequence[Corrected], humans: Sequence[int]) -> float:
        trial = replace(
            calibration, models={**calibration.models, language: shifted({name: value})}
        )
        error = sum(abs(r.score - h) for r, h in zip(regrade(trial, members), humans, strict=True))
        return weight * error + precision / 2 * value * value

    delta: dict[str, float] = {}
    for name in GROUP_FEATURES:
        members = [c for c in corrected if f"group:{grade_group(c.observed.inp)}" == name]
        humans = [c.human_score() for c in members]
        if members:
            delta[name] = min(sorted(SHIFTS, key=abs), key=lambda v: cost(name, v, members, humans))
    return shifted(delta)


def refit_models(
    calibration: Calibration, corrected: Sequence[Corrected], weight: float
) -> Calibration:
    """Every language the corrections hold, refitted: on the step labels (`refit_labels`),
    then on the scores (`refit_score`); the rest kept."""
    models = dict(calibration.models)
    for language in sorted({c.language for c in corrected}):
        mine = [c for c in corrected if c.language == language]
        if LABEL_REFIT:
            models[language] = refit_labels(calibration.model(language), mine, weight)
        models[language] = refit_score(replace(calibration, models=models), language, mine, weight)
    return replace(calibration, models=models)


# ------------------------------------------------------------------------------- regrading


@dataclass(frozen=True)
class Regraded:
    """A corrected grade graded again offline with a calibration."""

    corrected: Corrected
    labels: tuple[StepLabel, ...]
    score: int


def regrade(calibration: Calibration, corrected: Sequence[Corrected]) -> list[Regraded]:
    """Decide the labels again (the same decision as an offline grade, then Eq. 1)."""
    out = []
    for c in corrected:
        inp = c.observed.inp
        verdicts, labels, _ = decided(inp, c.observed.evidence, calibration)
        score = verdict_score(verdicts, labels, inp.problem_type) if labels else 0
        out.append(Regraded(c, tuple(labels), score))  # type: ignore[arg-type]
    return out


# ------------------------------------------------------------------------- the interval


def refit_uncertainty(
    calibration: Calibration, corrected: Sequence[Corrected], weight: float
) -> UncertaintyModel | None:
    """The shipped interval statistics pooled with those of the corrected grades, rescored
    with `calibration`'s (refitted) step model: per cell with enough corrected grades, each
    statistic the mean of the shipped cell's and the corrections' (`fit_cell`), weighted by
    the shipped grades and `weight` times the corrected ones. None without shipped statistics."""
    shipped = uncertainty_of(calibration)
    if shipped is None:
        return None
    regraded = regrade(calibration, corrected)
    cells = dict(shipped.cells)
    for name in CELL_NAMES:
        members = [r for r in regraded if _in_cell(name, r)]
        if not members:
            continue
        new = fit_cell(
            [r.score for r in members],
            [r.corrected.human_score() for r in members],
            [fold(r.corrected.problem, UNCERTAINTY_FOLDS) for r in members],
        )
        old = cells.get(name)
        if new is None or weight <= 0:
            continue
        cells[name] = new if old is None else _pool(old, new, weight)
    return replace(shipped, cells=cells)


def _in_cell(name: str, r: Regraded) -> bool:
    features = replace(r.corrected.features, score=r.score)
    if name == "all":
        return True
    if name == "unverified":
        return features.problem_type != "calculation"
    return cell_of(features) == name


def _pool(old: Cell, new: Cell, weight: float) -> Cell:
    a, b = float(old.n), weight * new.n

    def mean(x: float, y: float) -> float:
        return round((a * x + b * y) / (a + b), 4)

    return Cell(
        old.n + new.n,
        mean(old.intercept, new.intercept),
        mean(old.slope, new.slope),
        mean(old.spread0, new.spread0),
        mean(old.spread1, new.spread1),
        mean(old.q_lo, new.q_lo),
        mean(old.q_hi, new.q_hi),
        mean(old.nominal, new.nominal),
    )
