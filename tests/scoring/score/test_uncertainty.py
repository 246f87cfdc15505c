"""The review flags (`assess`): hand-written cells and grades, and a proof by example fused into
a real offline GradeReport. The interval itself: test_interval.py."""

from __future__ import annotations

import pytest

from scoring.schema import Meta, StepLabel
from scoring.score.features import features_of
from scoring.score.fuse import GradeInputs, fuse
from scoring.score.interval import Cell, UncertaintyModel, score_interval
from scoring.score.tree import build_tree
from scoring.score.uncertainty import assess
from scoring.verdict import AnswerVerdict, StepVerdict
from tests.scoring.score.grades import CELLS, MODEL, features


def proof_by_example() -> GradeInputs:
    """A proof by example: every step looks right to the offline checks."""
    steps = [
        "Let a = 3 and b = 5.",
        "Then a + b = 8, which is even.",
        "Therefore the sum of any two odd integers is even.",
    ]
    labels: list[StepLabel] = ["correct"] * 3
    return GradeInputs(
        steps=steps,
        verdicts=[StepVerdict("correct", "ok", validity=0.9) for _ in steps],
        tree=build_tree(labels, [[], [1], [2]]),
        problem_type="proof",
        language="en",
        answer=AnswerVerdict(None, (), symbolic=None),
    )


def test_a_proof_graded_offline_is_flagged_with_its_stable_code() -> None:
    report = fuse(proof_by_example(), Meta(mode="offline"))
    assert report.score == 10  # the grade itself is fooled ...
    review = assess(features_of(report), MODEL)
    assert review.needs_review  # ... and says it cannot see the logic
    assert review.reasons[0][0] == "proof_without_model"
    assert review.score_interval[0] <= 10 == review.score_interval[1]


def test_a_proof_whose_steps_a_model_judged_is_not_flagged_for_it() -> None:
    review = assess(
        features(
            problem_type="proof",
            verdict="none",
            has_reference=False,
            mode="llm",
            step_logic_checked=True,
            score=9,
        ),
        MODEL,
    )
    assert "proof_without_model" not in [code for code, _ in review.reasons]


def test_a_group_with_wider_residuals_gets_a_wider_interval() -> None:
    right = score_interval(features(score=9), MODEL)
    wrong = score_interval(features(verdict="wrong", score=9), MODEL)
    assert wrong[1] - wrong[0] > right[1] - right[0]
    assert "wide_interval" in [
        c for c, _ in assess(features(verdict="wrong", score=7), MODEL).reasons
    ]
    assert not assess(features(verdict="wrong", score=3), MODEL).needs_review


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"problem_type": "open_ended", "verdict": "none"}, "open_ended_without_model"),
        ({"answer_read": False, "verdict": "none"}, "answer_unparsed"),
        ({"has_reference": False, "verdict": "none", "score": 5}, "answer_unchecked"),
        ({"route_precision": 0.6}, "answer_weak_reading"),
        ({"score": 6, "wrong_steps": 1}, "steps_against_answer"),
        ({"unconfirmed_finding": True}, "unconfirmed_finding"),
        ({"problem_type": "proof", "examples_only": True}, "proof_by_example"),
        ({"degraded": True, "mode": "llm"}, "degraded"),
        ({"failed_checks": ("alignment",)}, "checks_failed"),
    ],
)
def test_each_reason_code(kw: dict[str, object], code: str) -> None:
    review = assess(features(**kw), MODEL)
    assert review.needs_review and code in [c for c, _ in review.reasons]


def test_steps_labelled_against_a_right_answer_span_both_readings() -> None:
    # a right-answer cell whose interval is the score itself, as the shipped one is
    narrow = UncertaintyModel(
        "narrow",
        0.8,
        {
            **CELLS,
            "right": Cell(
                n=50, intercept=0.0, slope=1.0, spread0=0.5, spread1=0.0, q_lo=0.0, q_hi=0.0
            ),
        },
        5,
    )
    assert score_interval(features(score=10), narrow) == (10, 10)
    assert score_interval(features(score=4, wrong_steps=1), narrow) == (4, 10)
    # below 10 only through unchecked steps' expected points: no step is labelled against it
    assert score_interval(features(score=9), narrow) == (9, 9)
    # a model judged the steps: its word against the answer is read by the LLM-mode cells
    llm = features(score=4, mode="llm", step_logic_checked=True, wrong_steps=1)
    assert score_interval(llm, narrow) == (4, 4)
    assert "steps_against_answer" not in [c for c, _ in assess(llm, narrow).reasons]


def test_an_answer_nobody_checked_may_be_right() -> None:
    unchecked = features(has_reference=False, verdict="none", score=4)
    assert score_interval(unchecked, MODEL)[1] == 10
    assert "answer_unchecked" in [c for c, _ in assess(unchecked, MODEL).reasons]
    # an answer read against a reference and found wrong is not widened
    assert score_interval(features(verdict="wrong", score=3), MODEL) == (1, 4)


def test_a_sure_right_answer_is_not_flagged() -> None:
    review = assess(features(), MODEL)
    assert not review.needs_review and review.reasons == ()
