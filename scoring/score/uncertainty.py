"""How sure a grade is: a central 80% score interval and the reasons a human should look at it.

The interval is locally weighted, group-conditional ("Mondrian") split conformal prediction
(Vovk, Gammerman & Shafer 2005, *Algorithmic Learning in a Random World*, ch. 4; Lei, G'Sell,
Rinaldo, Tibshirani & Wasserman 2018, "Distribution-free predictive inference for regression",
JASA, sections 2 and 5.2), with out-of-fold residuals (the CV+ idea of Barber, Candes, Ramdas &
Tibshirani 2021, "Predictive inference with the jackknife+"). Per cell of grades that err alike
(answer right, answer wrong, no verdict, proof, open-ended), a fitted model gives:
- a point prediction of the human score, `intercept + slope * score`: a wrong answer's own score
  says little about its partial credit, so the slope may be near zero and the interval is then
  centred on what humans give such solutions, not on the score;
- a spread, `spread0 + spread1 * |score - prediction|`: the further the grade sits from what the
  cell's humans give, the less it is to be trusted;
- the conformal quantiles `q_lo`, `q_hi` of the normalised residuals (human - prediction) / spread.
The interval is [prediction + q_lo * spread, prediction + q_hi * spread], rounded inward to
integers (human scores are integers), widened to contain the score itself, clipped to 0..10.
Widening and integer human scores make the interval cover more than its nominal level (a right
answer's [10, 10] covers nearly every human score), so each cell's quantiles are taken at a
nominal level `Cell.nominal` chosen on the fit half: the levels at which the finished integer
intervals cover 80% of the fit half's grades POOLED out of fold, each cell kept at or above the
level at which it alone covers a floor (75%). Cells that cannot cover less (right answers) are
thus offset by the others; the coverage is then marginal, as in split conformal prediction
(Lei et al. 2018, section 2), and no longer group-conditional at 80% as a Mondrian predictor
fitted per cell would be (Vovk 2012, "Conditional validity of inductive conformal
predictors"): per cell, only the floor is targeted. Nothing assumes the steps err
independently: the model reads whole-grade features and their measured residuals.

Cells are kept per mode: grades whose steps a model judged (LLM mode, not degraded) have cells
of their own (`UncertaintyModel.llm_cells`), fitted on grades made against a model of a stated
reliability; a model of another reliability needs a refit.

`needs_review` comes from stable reason codes (`REASONS`); everything here is pure, the fitted
statistics are read once (`load_uncertainty`, the section `uncertainty` of the calibration file,
fitted by `python -m eval_sets.calibrate` after the step model) and passed in.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Protocol, get_args

from scoring.judge.calibration import DEFAULT_PATH, Calibration, CalibrationError, load_calibration
from scoring.schema import GradeReport, ProblemType, ReviewCode

SECTION = "uncertainty"  # the calibration file's section that holds these statistics
UNCERTAINTY_FORMAT = 2

Verdict = Literal["right", "wrong", "none"]
CellName = Literal["right", "wrong", "no_verdict", "proof", "open_ended", "unverified", "all"]
CELL_NAMES: tuple[CellName, ...] = get_args(CellName)
# A cell too small for its quantiles falls back along this chain (the last always exists).
FALLBACK: dict[CellName, tuple[CellName, ...]] = {
    "right": ("right", "all"), "wrong": ("wrong", "all"), "no_verdict": ("no_verdict", "all"),
    "proof": ("proof", "unverified", "all"), "open_ended": ("open_ended", "unverified", "all"),
    "unverified": ("unverified", "all"), "all": ("all",),
}
REASONS: dict[ReviewCode, str] = {
    "proof_without_model": "a proof graded without a model: the step logic was not verified",
    "open_ended_without_model": "an open-ended solution graded without a model: the step "
                                "logic was not verified",
    "answer_unparsed": "no final answer could be read and compared with the reference",
    "answer_unchecked": "no reference answer and no model: the final answer was not checked",
    "answer_weak_reading": "the answer verdict rests on a reading of low measured precision",
    "steps_against_answer": "the final answer is right but the checks labelled steps wrong: a "
                            "step may be misread, or the answer reached despite an error",
    "degraded": "a model operation failed and fell back to the offline checks",
    "checks_failed": "some checks raised and were left out of this grade",
    "wide_interval": "the score is uncertain: its 80% interval is wide",
    "model_unmeasured": "the model's step labels were weighed with an assumed reliability, "
                        "never measured on labelled steps (stepgrade bench calibrate-llm)",
    "model_unreliable": "the model's measured step labels barely tell right steps from wrong "
                        "ones (low sensitivity or many false alarms)",
    "unconfirmed_finding": "a check found a possible error that did not decide the step's label "
                           "(its measured precision is too low, or the model's label outweighed "
                           "it): the step may be wrong",
    "proof_by_example": "the proof checks particular values only: a general claim is not "
                        "proved by examples",
    "memory_diverged": "the solution leaves every solution of this problem a teacher accepted: "
                       "its steps from there on were checked against nothing remembered",
    "addressed_to_grader": "the solution addresses the grader (asks for marks, claims to have "
                           "been verified or gives instructions): graded as if that text were "
                           "absent, shown as a step labelled not_math",
}
# A model's reliability counts as measured on at least this many human-wrong and human-right
# steps each; with fewer, a Wilson interval on a rate is wider than +-0.2 around 0.5.
MIN_MODEL_STEPS = 20
# A model whose Youden's J (sensitivity - false alarm) is below this is flagged unreliable: its
# "wrong" says less than half of what a perfect label would (J = 1).
MIN_MODEL_YOUDEN = 0.5


class UncertaintyError(ValueError):
    """The fitted statistics are missing, malformed or inconsistent."""


@dataclass(frozen=True)
class GradeFeatures:
    """What the interval and the review flags read from a finished grade."""

    problem_type: ProblemType
    verdict: Verdict
    has_reference: bool
    answer_read: bool
    mode: Literal["llm", "offline"]
    step_logic_checked: bool  # a model judged the steps (LLM mode, not degraded)
    degraded: bool
    steps: int
    score: int
    score_expected: float | None = None
    max_p_wrong: float = 0.0
    sum_p_wrong: float = 0.0
    verified_share: float = 0.0  # steps a verifying finding (symbolic, answer) covers
    failed_checks: tuple[str, ...] = ()
    route_precision: float | None = None  # the deciding reading's measured precision, if known
    wrong_steps: int = 0  # steps labelled incorrect or meaningless
    # a step not labelled wrong carries a symbolic check's error finding (it did not decide)
    unconfirmed_finding: bool = False
    examples_only: bool = False  # a proof's conclusion drawn from particular values only
    # LLM mode: where the model's reliability came from ("measured", "set", "assumed"), its
    # Youden's J, and the fewest labelled steps (of wrong and right) it was measured on.
    model_reliability: str | None = None
    model_youden: float | None = None
    model_steps: int | None = None
    # graded against a memory of the problem holding an accepted solution or its answer, and
    # whether the solution left every accepted solution (docs/architecture.md 4.12)
    memory: bool = False
    memory_diverged: bool = False
    addressed: int = 0  # steps of text addressed to the grader (label not_math), not graded


MIN_ROUTE_PRECISION = 0.9  # an answer decided by a less precise reading asks for a look


@dataclass(frozen=True)
class Cell:
    """One Mondrian cell's fitted statistics (see the module docstring)."""

    n: int
    intercept: float
    slope: float
    spread0: float
    spread1: float
    q_lo: float
    q_hi: float
    nominal: float = 0.8  # the quantiles' level, chosen so the integer intervals cover 80%

    def __post_init__(self) -> None:
        values = (self.intercept, self.slope, self.spread0, self.spread1, self.q_lo, self.q_hi)
        if not all(math.isfinite(v) for v in values):
            raise UncertaintyError("cell statistics must be finite")
        if self.n < 1:
            raise UncertaintyError(f"a cell needs at least one grade, got n={self.n}")
        if self.spread0 <= 0.0 or self.spread1 < 0.0:
            raise UncertaintyError("spread0 must be > 0 and spread1 >= 0")
        if self.q_lo > self.q_hi:
            raise UncertaintyError(f"q_lo {self.q_lo} is above q_hi {self.q_hi}")
        if not 0.0 < self.nominal < 1.0:
            raise UncertaintyError(f"nominal level must be in (0, 1), got {self.nominal}")

    def predict(self, score: float) -> float:
        """The cell's point prediction of the human score for this score."""
        return self.intercept + self.slope * score

    def spread(self, score: float) -> float:
        """How far this cell's human scores stray at this score (the residual scale)."""
        return self.spread0 + self.spread1 * abs(score - self.predict(score))


@dataclass(frozen=True)
class UncertaintyModel:
    """Fitted on the fit half by `eval_sets.calibrate.uncertainty`; read with `load_uncertainty`.

    `cells` are fitted on offline grades; `llm_cells` on grades whose steps a model judged (LLM
    mode, not degraded), made against a model of the reliability in `meta["llm"]`: they hold for
    a model of about that reliability only, and a measured one (`stepgrade bench
    calibrate-llm`) calls for a refit. Without `llm_cells`, LLM grades use the offline cells.
    `max_width`: an interval wider than this is flagged `wide_interval`.
    `min_route_precision`: an answer verdict whose reading is less precise than this is flagged.
    """

    version: str
    coverage: float
    cells: Mapping[str, Cell]
    max_width: int
    min_route_precision: float = MIN_ROUTE_PRECISION
    meta: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)
    llm_cells: Mapping[str, Cell] = field(default_factory=dict)
    # offline grades made against a problem's memory (`GradeFeatures.memory`), fitted on the
    # memory benchmark's fit-half grades; without them such grades use `cells`
    memory_cells: Mapping[str, Cell] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not 0.0 < self.coverage < 1.0:
            raise UncertaintyError(f"coverage must be in (0, 1), got {self.coverage}")
        if "all" not in self.cells:
            raise UncertaintyError("the statistics need the pooled cell 'all'")
        if self.llm_cells and "all" not in self.llm_cells:
            raise UncertaintyError("the LLM-mode statistics need the pooled cell 'all'")
        if self.memory_cells and "all" not in self.memory_cells:
            raise UncertaintyError("the memory statistics need the pooled cell 'all'")
        unknown = (set(self.cells) | set(self.llm_cells) | set(self.memory_cells)) \
            - set(CELL_NAMES)
        if unknown:
            raise UncertaintyError(f"unknown cells {sorted(unknown)}; known: {list(CELL_NAMES)}")
        if not 0 <= self.max_width <= 10:
            raise UncertaintyError(f"max_width must be 0..10, got {self.max_width}")

    def __hash__(self) -> int:
        return hash((self.version, self.coverage, self.max_width, self.min_route_precision))

    def cell(self, name: CellName, model_judged: bool = False, memory: bool = False) -> Cell:
        """The statistics for a cell, or for its nearest parent that was fitted: among the
        LLM-mode cells for a grade whose steps a model judged, when there are any; among the
        memory cells for an offline grade made against a problem's memory, when there are any."""
        cells = self.cells
        if model_judged and self.llm_cells:
            cells = self.llm_cells
        elif memory and not model_judged and self.memory_cells:
            cells = self.memory_cells
        for candidate in FALLBACK[name]:
            if candidate in cells:
                return cells[candidate]
        raise AssertionError("unreachable: 'all' is checked on construction")

    def to_json(self) -> dict[str, Any]:
        """The statistics as the JSON that `from_json` reads back."""
        return {"format": UNCERTAINTY_FORMAT, "version": self.version, "coverage": self.coverage,
                "max_width": self.max_width, "min_route_precision": self.min_route_precision,
                "cells": {k: vars(v) for k, v in self.cells.items()},
                "llm_cells": {k: vars(v) for k, v in self.llm_cells.items()},
                "memory_cells": {k: vars(v) for k, v in self.memory_cells.items()},
                "meta": dict(self.meta)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UncertaintyModel:
        """Statistics from JSON; malformed or foreign input raises UncertaintyError with the reason."""
        try:
            if data.get("format") != UNCERTAINTY_FORMAT:
                raise UncertaintyError(f"uncertainty format {data.get('format')!r} is not "
                                       f"{UNCERTAINTY_FORMAT}; refit with python -m "
                                       "eval_sets.calibrate")
            cells = {str(k): Cell(**v) for k, v in data["cells"].items()}
            llm_cells = {str(k): Cell(**v) for k, v in data.get("llm_cells", {}).items()}
            memory_cells = {str(k): Cell(**v) for k, v in data.get("memory_cells", {}).items()}
            return cls(str(data["version"]), float(data["coverage"]), cells,
                       int(data["max_width"]),
                       float(data.get("min_route_precision", MIN_ROUTE_PRECISION)),
                       dict(data.get("meta", {})), llm_cells, memory_cells)
        except UncertaintyError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise UncertaintyError(f"uncertainty statistics are malformed: {err!r}") from None


@dataclass(frozen=True)
class Review:
    """A grade's interval and review flags, ready for the GradeReport."""

    score_interval: tuple[int, int] | None
    needs_review: bool
    reasons: tuple[tuple[ReviewCode, str], ...]


def uncertainty_of(calibration: Calibration) -> UncertaintyModel | None:
    """The statistics fitted with this calibration (its `uncertainty` section); None when it
    has none (a hand-written calibration): grades then carry no interval."""
    data = calibration.section(SECTION)
    if data is None:
        return None
    if not isinstance(data, dict):
        raise UncertaintyError(f"the calibration's {SECTION!r} section is not a JSON object")
    return UncertaintyModel.from_json(data)


@lru_cache(maxsize=4)
def load_uncertainty(path: Path = DEFAULT_PATH) -> UncertaintyModel:
    """The statistics in the calibration file at `path` (the shipped one by default), read
    once per path; a file without them, or a bad one, raises UncertaintyError."""
    try:
        model = uncertainty_of(load_calibration(path))
    except CalibrationError as err:
        raise UncertaintyError(f"cannot read uncertainty statistics: {err}") from None
    if model is None:
        raise UncertaintyError(f"calibration file {path} has no {SECTION!r} section; refit with "
                               "python -m eval_sets.calibrate")
    return model


def cell_of(features: GradeFeatures) -> CellName:
    """The Mondrian cell: grades whose errors are alike. Proofs and open-ended solutions are
    cells of their own whatever their answer verdict, since their score rests on the steps."""
    if features.problem_type != "calculation":
        return features.problem_type
    return {"right": "right", "wrong": "wrong", "none": "no_verdict"}[features.verdict]  # type: ignore[return-value]


def features_of(report: GradeReport, reliability: ModelReliability | None = None
                ) -> GradeFeatures:
    """The features of a finished GradeReport, the answer route's measured precision included;
    `reliability` is the model's, in the report's language (LLM mode). Steps of text addressed
    to the grader (label `not_math`) were not graded and are not read as steps."""
    steps = [s for s in report.steps if s.label != "not_math"]
    p_wrong = [s.p_wrong for s in steps if s.p_wrong is not None]
    verified = sum(1 for s in steps if {"symbolic", "answer"} & set(s.evidence))
    correct = report.answer.correct
    remembered = report.meta.memory
    return GradeFeatures(
        problem_type=report.problem_type,
        verdict="right" if correct else ("wrong" if correct is False else "none"),
        has_reference=bool(report.answer.reference),
        answer_read=report.answer.extracted is not None and correct is not None,
        mode=report.meta.mode,
        step_logic_checked=report.meta.mode == "llm" and not report.meta.degraded,
        degraded=report.meta.degraded,
        steps=len(steps),
        score=report.score,
        score_expected=report.score_expected,
        max_p_wrong=max(p_wrong, default=0.0),
        sum_p_wrong=sum(p_wrong),
        verified_share=verified / len(steps) if steps else 0.0,
        failed_checks=tuple(report.meta.failed_checks),
        route_precision=report.answer.route_precision,
        wrong_steps=sum(s.label in ("incorrect", "meaningless") for s in steps),
        unconfirmed_finding=any(
            s.label not in ("incorrect", "meaningless") and any(
                c.polarity == "error" and c.source == "symbolic" for c in s.checks)
            for s in steps),
        examples_only=any(c.kind == "examples_only" for s in steps for c in s.checks),
        model_reliability=None if reliability is None else reliability.source,
        model_youden=None if reliability is None else reliability.youden,
        model_steps=None if reliability is None or reliability.wrong is None
        or reliability.right is None else min(reliability.wrong, reliability.right),
        memory=remembered is not None and (remembered.aligned_solution is not None
                                           or remembered.reference_answer),
        memory_diverged=remembered is not None and remembered.divergence_step is not None,
        addressed=len(report.steps) - len(steps),
    )


class ModelReliability(Protocol):
    """What the review reads of a model's reliability (`scoring.judge.Reliability` is one)."""

    @property
    def source(self) -> str:
        """Where the rates come from: "measured", "set" or "assumed"."""
        ...

    @property
    def youden(self) -> float:
        """Sensitivity minus false-alarm rate (Youden's J)."""
        ...

    @property
    def wrong(self) -> int | None:
        """Wrong steps the rates were measured on (None when not measured)."""
        ...

    @property
    def right(self) -> int | None:
        """Right steps the rates were measured on (None when not measured)."""
        ...


def model_codes(features: GradeFeatures) -> list[ReviewCode]:
    """In LLM mode, whether the model's labels can be trusted as the decision weighed them.

    An assumed reliability (nothing measured, nothing set), or one measured on fewer than
    `MIN_MODEL_STEPS` wrong or right steps, is `model_unmeasured`: the fusion weighed the model
    by a guess. A measured or set reliability with Youden's J below `MIN_MODEL_YOUDEN` is
    `model_unreliable`: its labels carry little evidence, so the grade rests on the checks.
    """
    if not features.step_logic_checked or features.model_reliability is None:
        return []
    if features.model_reliability == "assumed" or (
            features.model_reliability == "measured" and features.model_steps is not None
            and features.model_steps < MIN_MODEL_STEPS):
        return ["model_unmeasured"]
    if features.model_youden is not None and features.model_youden < MIN_MODEL_YOUDEN:
        return ["model_unreliable"]
    return []


def steps_against_answer(features: GradeFeatures) -> bool:
    """Offline, the answer is right and yet steps were labelled wrong (the score is below 10).

    The two signals disagree, and the answer-right cell cannot say which to believe: its
    grades almost all score 10, so its interval is the score itself (on the fit half, 2 of its
    75 grades score below 10, both 9, given 10 and 5 by humans; on the grader's own
    segmentation 4, given 10, 10, 5 and 8). A check that misreads a right step is one cause, a
    slip the answer survived is the other."""
    return (not features.step_logic_checked and features.problem_type == "calculation"
            and features.verdict == "right" and features.score < 10 and features.wrong_steps > 0)


def answer_unchecked(features: GradeFeatures) -> bool:
    """A calculation graded without a reference answer, whose answer nothing decided."""
    return (features.problem_type == "calculation" and not features.has_reference
            and features.verdict == "none")


def score_interval(features: GradeFeatures, model: UncertaintyModel) -> tuple[int, int]:
    """The central interval [lo, hi] (integers within 0..10 holding the score and the expected
    score: the report's point estimates never contradict its interval).

    It reaches 10 where the answer may be right whatever the steps say: a grade whose steps are
    labelled against its right answer (`steps_against_answer`) spans both readings, and an
    answer nobody checked (`answer_unchecked`) may be right, which no cell has seen (the fit
    half's calculations all have a reference): humans give a right answer's solution 10."""
    cell = model.cell(cell_of(features), features.step_logic_checked, features.memory)
    score = features.score
    return finish_interval(features, integer_interval(score, cell.predict(score),
                                                      cell.spread(score), cell.q_lo, cell.q_hi))


def finish_interval(features: GradeFeatures, interval: tuple[int, int]) -> tuple[int, int]:
    """A cell's integer interval as the report gives it: widened to hold the expected score,
    and to 10 where the answer may be right whatever the steps say (`score_interval`). The fit
    reads its coverage through this too, so that the levels it chooses are those shipped."""
    lo, hi = interval
    if features.score_expected is not None:
        lo = min(lo, math.floor(features.score_expected + 1e-9))
        hi = max(hi, math.ceil(features.score_expected - 1e-9))
    could_be_right = steps_against_answer(features) or answer_unchecked(features)
    return (lo, 10) if could_be_right else (lo, hi)


def integer_interval(score: int, centre: float, spread: float, q_lo: float,
                     q_hi: float) -> tuple[int, int]:
    """[centre + q_lo * spread, centre + q_hi * spread] as integers holding the score, in 0..10.

    Human scores are integers: h >= x iff h >= ceil(x), h <= x iff h <= floor(x), so rounding
    inward keeps the conformal coverage and drops up to a point of width."""
    lo = math.ceil(centre + q_lo * spread - 1e-9)
    hi = math.floor(centre + q_hi * spread + 1e-9)
    return max(0, min(lo, score)), min(10, max(hi, score))


def review_reasons(features: GradeFeatures, interval: tuple[int, int] | None,
                   model: UncertaintyModel | None) -> list[ReviewCode]:
    """The stable codes, in a fixed order, of everything that asks for a human look.

    Without fitted statistics (`model` None: a hand-written calibration) there is no interval to
    call wide, but what the judge could not see is still said."""
    codes: list[ReviewCode] = []
    if features.addressed:
        codes.append("addressed_to_grader")
    if not features.step_logic_checked and features.problem_type == "proof":
        codes.append("proof_without_model")
    if not features.step_logic_checked and features.problem_type == "open_ended":
        codes.append("open_ended_without_model")
    if features.problem_type == "calculation":
        if features.has_reference and not features.answer_read:
            codes.append("answer_unparsed")
        elif answer_unchecked(features):
            codes.append("answer_unchecked")
    min_precision = model.min_route_precision if model else MIN_ROUTE_PRECISION
    if features.route_precision is not None and features.route_precision < min_precision:
        codes.append("answer_weak_reading")
    if steps_against_answer(features):
        codes.append("steps_against_answer")
    if features.unconfirmed_finding:
        codes.append("unconfirmed_finding")
    if features.examples_only:
        codes.append("proof_by_example")
    codes += model_codes(features)
    if features.degraded:
        codes.append("degraded")
    if features.failed_checks:
        codes.append("checks_failed")
    if features.memory_diverged:
        codes.append("memory_diverged")
    if model is not None and interval is not None and interval[1] - interval[0] > model.max_width:
        codes.append("wide_interval")
    return codes


def assess(features: GradeFeatures, model: UncertaintyModel | None) -> Review:
    """The interval and the review flags of one grade: the one call the grader makes."""
    interval = score_interval(features, model) if model is not None else None
    codes = review_reasons(features, interval, model)
    return Review(interval, bool(codes), tuple((c, REASONS[c]) for c in codes))


def flagged_share(reviews: Sequence[Review]) -> float:
    """The share of grades that ask for review."""
    return sum(r.needs_review for r in reviews) / len(reviews) if reviews else 0.0
