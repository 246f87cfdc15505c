"""Recalibration from teachers' corrections (issue 26, item 3; docs/architecture.md 4.10, 4.11).

A deployment's corrected grades (`GET /grades/export?corrected=true`: the report, the latest
correction's step labels and score) are labelled steps of the school's own problems. The shipped
calibration holds statistics and weights only, no rows, so "shipped data plus corrections" is
read as a maximum a posteriori refit (Bishop 2006, "Pattern Recognition and Machine Learning",
section 4.5.1, Laplace's approximation): the shipped fit is summarised by a Gaussian prior
centred on the shipped weights, with a precision of `n0 * v` per weight, where `n0` is the
number of labelled steps the shipped model was fitted on (the `steps` of its recalibration map)
and `v` the mean Bernoulli variance p(1 - p) of the corrections' steps under the shipped model
(the Fisher information one step carries about a weight, for an indicator feature). Each
corrected step counts `weight` times in the likelihood: at `weight = 1` a corrected step is
worth one shipped step, at 8 eight of them. The weight is chosen by cross-validation on the
corrections that are not held back (`choose_weight`), on the mean absolute error of the score.

The score interval (`scoring.score.uncertainty`) is refitted the same way: the corrected
grades, rescored with the refitted step model, give each cell's statistics
(`eval_sets.calibrate.uncertainty.fit_cell`), pooled with the shipped cell's by a weighted mean
(`n0` shipped grades against `weight` times the corrected ones).

Only the languages the corrections hold are refitted; every other model, the finding kinds'
statistics and every other section are kept.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, cast

import numpy as np

from eval_sets.calibrate.evidence import Observed
from eval_sets.calibrate.labelled import LabelledSolution
from eval_sets.calibrate.uncertainty import FOLDS as UNCERTAINTY_FOLDS
from eval_sets.calibrate.uncertainty import corr_mae, fit_cell, with_uncertainty
from eval_sets.halves import problem_digest
from scoring.judge import JudgeInput, collect_findings
from scoring.judge.calibration import (
    ANY_TYPE,
    DEFAULT_PATH,
    Calibration,
    CalibrationError,
    StepModel,
    load_calibration,
)
from scoring.judge.decide.features import step_features
from scoring.judge.decide.labels import decide
from scoring.schema import GradeReport, ProblemType, StepLabel
from scoring.score.aggregate import score_solution
from scoring.score.tree import build_tree
from scoring.score.uncertainty import (
    CELL_NAMES,
    Cell,
    GradeFeatures,
    UncertaintyModel,
    cell_of,
    features_of,
    uncertainty_of,
)
from scoring.verdict import AnswerVerdict

# What a corrected step counts for, in shipped steps: the candidates cross-validation picks from.
WEIGHTS: tuple[float, ...] = (0.0, 1.0, 4.0, 16.0, 64.0)
# The weights every step of a grade shares (the problem type, the answer verdict, the bias).
GRADE_FEATURES: tuple[str, ...] = (
    "bias", "proof", "open_ended", "answer_correct_earlier", "answer_wrong_earlier")
SHIFTS: tuple[float, ...] = tuple(round(0.5 * k, 1) for k in range(-6, 7))  # log-odds
PASSES = 2
LABEL_REFIT = True
# The default weight of a corrected grade, chosen on simulated deployments over the FIT half of
# StepMathBench dev (README, "Recalibration from corrections"); `--weight cv` cross-validates
# it on the corrections instead.
DEFAULT_WEIGHT = 16.0
HELD_SHARE = 5  # one problem in HELD_SHARE is held back to report the agreement
CV_FOLDS = 5
TIMEOUT = 30.0  # seconds per HTTP call
MIN_STEPS_PRIOR = 100  # the shipped model's labelled steps when its file does not say
_LABELS: frozenset[str] = frozenset({"correct", "incorrect", "meaningless", "redundant"})


class CorrectionsError(ValueError):
    """The corrections cannot be read: a malformed line, or none at all."""


@dataclass(frozen=True)
class Corrected:
    """One corrected grade: what the judge reads (checks rerun on the report's steps), the
    teacher's labels and score, and the grade as it was answered."""

    grade_id: str
    observed: Observed
    labels: tuple[StepLabel, ...]
    score: int | None  # the teacher's score, if given
    features: GradeFeatures  # of the report as answered

    @property
    def problem(self) -> str:
        return self.observed.inp.problem

    @property
    def language(self) -> str:
        return self.observed.inp.language

    def human_score(self) -> int:
        """The teacher's score, else Eq. 1 on the teacher's labels."""
        if self.score is not None:
            return self.score
        return score_solution(self.labels, self.observed.inp.problem_type).score


# ---------------------------------------------------------------------------------- reading

def _answer(report: GradeReport) -> AnswerVerdict:
    """The answer verdict as the report gave it (the checks read its decision)."""
    answer = report.answer
    return AnswerVerdict(answer.extracted, tuple(answer.reference), answer.symbolic, answer.llm)


def parse_line(line: str, number: int = 0) -> Corrected:
    """One export line -> a corrected grade, its checks rerun offline on the report's steps.

    Raises:
        CorrectionsError: not JSON, a field missing or of the wrong kind, labels that do not
            match the steps.
    """
    where = f"line {number}" if number else "a line"
    try:
        record = json.loads(line)
    except ValueError as err:
        raise CorrectionsError(f"{where} is not JSON: {err}") from None
    if not isinstance(record, dict):
        raise CorrectionsError(f"{where} is not a JSON object")
    try:
        report = GradeReport.model_validate(record["report"])
        labels = record["labels"]
        score = record.get("score")
        grade_id = str(record.get("grade_id", number))
        problem = str(record.get("problem") or (record.get("request") or {})["problem"])
    except (KeyError, TypeError, ValueError) as err:
        raise CorrectionsError(f"{where} is not a corrected grade (request/problem, report, "
                               f"labels, score): {err}".replace("\n", " ")[:400]) from None
    if not isinstance(labels, list) or not all(isinstance(x, str) and x in _LABELS for x in labels):
        raise CorrectionsError(f"{where}: labels must be a list of {sorted(_LABELS)} "
                               "(export with ?corrected=true)")
    if len(labels) != len(report.steps):
        raise CorrectionsError(f"{where}: {len(labels)} labels for {len(report.steps)} steps")
    if score is not None and (not isinstance(score, int) or not 0 <= score <= 10):
        raise CorrectionsError(f"{where}: score must be an integer 0-10 or null")
    steps = tuple(s.text for s in report.steps)
    problem_type: ProblemType = report.problem_type
    inp = JudgeInput(problem, steps, problem_type, _answer(report), language=report.language)
    typed = tuple(cast(StepLabel, x) for x in labels)
    solution = LabelledSolution(
        set="corrections", id=grade_id, half="fit", problem=problem, steps=steps,
        wrong=tuple(x == "incorrect" for x in typed), problem_type=problem_type,
        language=report.language, references=tuple(report.answer.reference),
        human_labels=typed, gold_score=score)
    observed = Observed(solution, inp, collect_findings(inp))
    return Corrected(grade_id, observed, typed, score, features_of(report))


def read_lines(lines: Iterable[str]) -> list[Corrected]:
    """Every non-blank export line, in order.

    Raises:
        CorrectionsError: a malformed line (its number is named), or no line at all.
    """
    out = [parse_line(line, n) for n, line in enumerate(lines, 1) if line.strip()]
    if not out:
        raise CorrectionsError("no corrected grades: the export is empty")
    return out


# ------------------------------------------------------------------------------- the folds

def held_back(problem: str) -> bool:
    """Whether a problem is in the held-back fifth (by a byte of a hash of its text, so that
    several solutions of one problem never straddle the line)."""
    return problem_digest(problem)[3] % HELD_SHARE == 0


def fold(problem: str, folds: int = CV_FOLDS) -> int:
    """The cross-validation fold of a problem inside the corrections that are fitted on."""
    return problem_digest(problem)[4] % folds


# ------------------------------------------------------------------------ the step model fit

def prior_count(model: StepModel) -> int:
    """The labelled steps the shipped model was fitted on, as its file records them."""
    platt = model.recalibration.get(ANY_TYPE)
    return platt.steps if platt is not None and platt.steps > 0 else MIN_STEPS_PRIOR


def _design(model: StepModel, corrected: Sequence[Corrected],
            names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    rows, labels = [], []
    for c in corrected:
        o = c.observed
        for i, wrong in enumerate(o.solution.wrong):
            if wrong is None:
                continue
            found = step_features(o.inp, i, o.evidence.at(i))
            for name, (low, high) in model.ranges.items():  # as the model reads them
                if name in found:
                    found[name] = min(max(found[name], low), high)
            rows.append([found.get(n, 0.0) for n in names])
            labels.append(float(wrong))
    return np.array(rows, dtype=float).reshape(len(rows), len(names)), np.array(labels)


def map_logistic(x: np.ndarray, y: np.ndarray, prior: np.ndarray, precision: float,
                 weight: float, max_iter: int = 100) -> np.ndarray:
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


def refit_score(calibration: Calibration, language: str, corrected: Sequence[Corrected],
                weight: float) -> StepModel:
    """Shifts of the grade-level weights (`GRADE_FEATURES`: those every step of a grade
    shares) that bring the offline score closest to the teachers' scores, at a Gaussian cost
    toward the shipped weights: minimises `weight * sum |score - teacher's| + n0 v / 2 *
    ||shift||^2` by coordinate search on a grid (`SHIFTS`); the score is a step function of the
    weights, so no gradient exists.

    The step labels' likelihood is not what a grade is judged by: the shipped weights already
    maximise it, and a refit on it alone moves the score little (README, "Recalibration from
    corrections"). These weights set how many steps of a grade the decision calls wrong, which
    is what a teacher's score corrects."""
    model = calibration.model(language)
    names = [n for n in GRADE_FEATURES if n in model.weights]
    if weight <= 0 or not names or not corrected:
        return model
    x, _ = _design(model, corrected, sorted(model.weights))
    precision = prior_precision(model, x)
    humans = [c.human_score() for c in corrected]

    def shifted(delta: dict[str, float]) -> StepModel:
        weights = {n: round(w + delta.get(n, 0.0), 4) for n, w in model.weights.items()}
        return replace(model, weights=weights)

    def cost(delta: dict[str, float]) -> float:
        trial = replace(calibration, models={**calibration.models, language: shifted(delta)})
        error = sum(abs(r.score - h) for r, h in zip(regrade(trial, corrected), humans, strict=True))
        return weight * error + precision / 2 * sum(d * d for d in delta.values())

    delta = dict.fromkeys(names, 0.0)
    best = cost(delta)
    for _ in range(PASSES):
        moved = False
        for name in names:
            for value in sorted(SHIFTS, key=abs):
                trial = {**delta, name: value}
                value_cost = cost(trial)
                if value_cost < best - 1e-9:
                    best, delta, moved = value_cost, trial, True
        if not moved:
            break
    return shifted(delta)


def refit_models(calibration: Calibration, corrected: Sequence[Corrected],
                 weight: float) -> Calibration:
    """Every language the corrections hold, refitted: on the step labels (`refit_labels`),
    then on the scores (`refit_score`); the rest kept."""
    models = dict(calibration.models)
    for language in sorted({c.language for c in corrected}):
        mine = [c for c in corrected if c.language == language]
        if LABEL_REFIT:
            models[language] = refit_labels(calibration.model(language), mine, weight)
        models[language] = refit_score(replace(calibration, models=models), language, mine, weight)
    return replace(calibration, models=models)


# ------------------------------------------------------------------------------- agreement

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
        verdicts, _ = decide(inp, c.observed.evidence, calibration)
        tree = build_tree([v.label for v in verdicts],
                          [[d - 1 for d in v.depends_on] for v in verdicts])
        labels = tuple(tree.labels)
        out.append(Regraded(c, labels, score_solution(labels, inp.problem_type).score))
    return out


@dataclass(frozen=True)
class Agreement:
    """Agreement with the teachers: MAE and Pearson Corr (x100) of the score, and the share of
    steps whose label (wrong or not) the teacher kept."""

    grades: int
    mae: float
    corr: float
    steps: float


def agreement(regraded: Sequence[Regraded]) -> Agreement:
    """How far the regraded solutions are from the teachers' scores and labels."""
    pairs = [(float(r.score), float(r.corrected.human_score())) for r in regraded]
    corr, mae = corr_mae(pairs) if pairs else (math.nan, math.nan)
    same = [(a == "incorrect") == (b == "incorrect") for r in regraded
            for a, b in zip(r.labels, r.corrected.labels, strict=False)]
    return Agreement(len(pairs), mae, corr, sum(same) / len(same) if same else math.nan)


def mae_of(calibration: Calibration, corrected: Sequence[Corrected]) -> float:
    """Mean absolute error of the regraded score against the teachers'."""
    return agreement(regrade(calibration, corrected)).mae


# --------------------------------------------------------------------- choosing the weight

def choose_weight(calibration: Calibration, corrected: Sequence[Corrected],
                  weights: Sequence[float] = WEIGHTS) -> tuple[float, dict[float, float]]:
    """The weight whose refit scores the held-out folds best: `CV_FOLDS`-fold cross-validation
    by problem over `corrected` (the corrections not held back), on the mean absolute error of
    the score; the smaller weight on a tie (0: the shipped model, when nothing helps)."""
    folds = [[c for c in corrected if fold(c.problem) == k] for k in range(CV_FOLDS)]
    errors: dict[float, float] = {}
    for w in weights:
        total = n = 0.0
        for k, test in enumerate(folds):
            if not test:
                continue
            train = [c for j, f in enumerate(folds) if j != k for c in f]
            refitted = refit_models(calibration, train, w)
            total += mae_of(refitted, test) * len(test)
            n += len(test)
        errors[w] = round(total / n, 4) if n else math.nan
    best = min(weights, key=lambda w: (errors[w], w))
    return best, errors


# ------------------------------------------------------------------------- the interval

def refit_uncertainty(calibration: Calibration, corrected: Sequence[Corrected],
                      weight: float) -> UncertaintyModel | None:
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
        new = fit_cell([r.score for r in members], [r.corrected.human_score() for r in members],
                       [fold(r.corrected.problem, UNCERTAINTY_FOLDS) for r in members])
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

    return Cell(old.n + new.n, mean(old.intercept, new.intercept), mean(old.slope, new.slope),
                mean(old.spread0, new.spread0), mean(old.spread1, new.spread1),
                mean(old.q_lo, new.q_lo), mean(old.q_hi, new.q_hi), mean(old.nominal, new.nominal))


# ---------------------------------------------------------------------------- the whole fit

@dataclass(frozen=True)
class Recalibrated:
    """The new calibration and what the fit measured."""

    calibration: Calibration
    weight: float
    cv: dict[float, float]  # the weight -> cross-validated MAE
    fitted: int  # corrected grades the measured refit was fitted on
    held: int  # corrected grades held back to measure it
    before: Agreement  # on the held-back fifth, shipped calibration
    after: Agreement  # on the held-back fifth, new calibration


def recalibrate(calibration: Calibration, corrected: Sequence[Corrected],
                weight: float | None = None) -> Recalibrated:
    """Measure on the held-back fifth a refit on the other corrections (the weight chosen on
    them with `weight` None), then refit on all of them; the file's other sections are kept and
    a new version named.

    `weight` None: cross-validated on the corrections not held back (`choose_weight`; the
    default weight when they span fewer than two folds)."""
    held = [c for c in corrected if held_back(c.problem)]
    fit = [c for c in corrected if not held_back(c.problem)] or list(corrected)
    cv: dict[float, float] = {}
    if weight is None:
        if len({fold(c.problem) for c in fit}) >= 2:
            weight, cv = choose_weight(calibration, fit)
        else:
            weight = DEFAULT_WEIGHT
    before = agreement(regrade(calibration, held))
    after = agreement(regrade(_refit(calibration, fit, weight), held))
    # Measured on the fifth held back, then fitted on every correction.
    new = _refit(calibration, corrected, weight)
    meta = {**calibration.meta, "corrections": {
        "from": calibration.version, "grades": len(corrected), "weight": weight,
        "prior": "shipped weights, precision = shipped steps x mean p(1-p)"}}
    new = replace(new, meta=meta)
    return Recalibrated(new, weight, cv, len(fit), len(held), before, after)


def _refit(calibration: Calibration, corrected: Sequence[Corrected], weight: float) -> Calibration:
    """The step models, then the interval statistics on grades of the refitted models; a new
    version."""
    refitted = refit_models(calibration, corrected, weight)
    interval = refit_uncertainty(refitted, corrected, weight)
    if interval is not None:
        return with_uncertainty(refitted, interval)
    return with_uncertainty_free(refitted)


def with_uncertainty_free(calibration: Calibration) -> Calibration:
    """A new version for a calibration without interval statistics (digest of its models)."""
    body = {"models": calibration.to_json()["models"], "kinds": calibration.to_json()["kinds"]}
    digest = hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]
    return replace(calibration, version=f"{calibration.version.split('-')[0]}-{digest}")


def to_text(calibration: Calibration) -> str:
    """The calibration file's text (as `python -m eval_sets.calibrate` writes it)."""
    data: dict[str, Any] = calibration.to_json()
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


# ------------------------------------------------------------------------------ the command

def fetch_export(url: str, api_key: str | None, timeout: float = TIMEOUT) -> list[str]:
    """The corrected grades' export lines from a running service.

    Raises:
        CorrectionsError: unreachable, refused (a bad key), or not an export.
    """
    import httpx

    target = url.rstrip("/")
    if not target.endswith("/grades/export"):
        target += "/grades/export"
    headers = {"X-API-Key": api_key} if api_key else {}
    try:
        response = httpx.get(target, params={"corrected": "true"}, headers=headers,
                             timeout=timeout)
    except httpx.HTTPError as err:
        raise CorrectionsError(f"cannot reach {target}: {err}") from None
    if response.status_code in (401, 403):
        raise CorrectionsError(f"{target} refused the API key (HTTP {response.status_code}); "
                               "pass the key that graded the corrections with --api-key")
    if response.status_code != 200:
        raise CorrectionsError(f"{target} answered HTTP {response.status_code}: "
                               f"{response.text[:200]}")
    return response.text.splitlines()


def read_source(source: str, api_key: str | None, timeout: float = TIMEOUT) -> list[Corrected]:
    """The corrected grades from a service URL (http:// or https://) or an export file."""
    if source.startswith(("http://", "https://")):
        return read_lines(fetch_export(source, api_key, timeout))
    try:
        with open(source, encoding="utf-8") as handle:
            return read_lines(handle)
    except OSError as err:
        raise CorrectionsError(f"cannot read {source}: {err.strerror or err}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `stepgrade calibrate` (and `python -m eval_sets.calibrate.corrections`)."""
    parser.add_argument("--corrections", required=True, metavar="URL_OR_FILE",
                        help="a service's base URL (reads GET /grades/export?corrected=true) "
                             "or a file of its JSON lines")
    parser.add_argument("--out", required=True, type=Path, help="the calibration file to write")
    parser.add_argument("--api-key", default=os.environ.get("STEPGRADE_API_KEY"),
                        help="the key whose corrections to read (default STEPGRADE_API_KEY)")
    parser.add_argument("--calibration", type=Path, default=None,
                        help="the calibration to start from (default STEPGRADE_CALIBRATION, "
                             "else the shipped one)")
    parser.add_argument("--weight", default=str(DEFAULT_WEIGHT),
                        help="what a corrected step counts for against the shipped fit, or "
                             f"'cv' to cross-validate it (default {DEFAULT_WEIGHT:g})")
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per HTTP call")


def run(args: argparse.Namespace) -> int:
    """Read, refit, report on the held-back fifth, write; exit 2 with a message on bad input."""
    try:
        weight = None if args.weight == "cv" else float(args.weight)
        if weight is not None and not (math.isfinite(weight) and weight >= 0):
            raise ValueError
    except ValueError:
        print(f"calibrate: --weight must be a number >= 0 or 'cv', got {args.weight!r}",
              file=sys.stderr)
        return 2
    start = args.calibration or os.environ.get("STEPGRADE_CALIBRATION") or DEFAULT_PATH
    try:
        calibration = load_calibration(Path(start))
        corrected = read_source(args.corrections, args.api_key, args.timeout)
    except (CorrectionsError, CalibrationError) as err:
        print(f"calibrate: {err}", file=sys.stderr)
        return 2
    result = recalibrate(calibration, corrected, weight)
    print(f"corrections: {len(corrected)} grades; measured fitting on {result.fitted} and "
          f"holding back {result.held}, then fitted on all; weight {result.weight:g}"
          + (f" (cross-validated MAE by weight: {result.cv})" if result.cv else ""))
    print("agreement on the held-back fifth (MAE and Corr of the score, step agreement):")
    for name, a in (("before", result.before), ("after", result.after)):
        print(f"  {name:6s} {calibration.version if name == 'before' else result.calibration.version}"
              f": grades {a.grades}, MAE {a.mae:.3f}, Corr {a.corr:.1f}, steps {100 * a.steps:.1f}%")
    try:
        args.out.write_text(to_text(result.calibration), encoding="utf-8")
    except OSError as err:
        print(f"calibrate: cannot write {args.out}: {err.strerror or err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out} (version {result.calibration.version}); serve it with "
          f"STEPGRADE_CALIBRATION={args.out}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval_sets.calibrate.corrections",
                                     description="Recalibrate from teachers' corrections.")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
