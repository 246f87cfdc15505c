"""The reasons a human should look at a grade: stable review codes, with the score interval.

`needs_review` comes from stable reason codes (`REASONS`), read from the grade's features
(`scoring.score.features`) and its interval (`scoring.score.interval`); `assess` gives both, the
one call the grader makes. Everything here is pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.schema import ReviewCode
from scoring.score.features import GradeFeatures, answer_unchecked, steps_against_answer
from scoring.score.interval import MIN_ROUTE_PRECISION, UncertaintyModel, score_interval

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


@dataclass(frozen=True)
class Review:
    """A grade's interval and review flags, ready for the GradeReport."""

    score_interval: tuple[int, int] | None
    needs_review: bool
    reasons: tuple[tuple[ReviewCode, str], ...]


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
        features.model_reliability == "measured"
        and features.model_steps is not None
        and features.model_steps < MIN_MODEL_STEPS
    ):
        return ["model_unmeasured"]
    if features.model_youden is not None and features.model_youden < MIN_MODEL_YOUDEN:
        return ["model_unreliable"]
    return []


def review_reasons(
    features: GradeFeatures, interval: tuple[int, int] | None, model: UncertaintyModel | None
) -> list[ReviewCode]:
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
