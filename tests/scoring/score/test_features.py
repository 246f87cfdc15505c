"""The whole-grade features the interval and the review read, taken from a fused report, and
the two readings of them both use."""

from __future__ import annotations

import pytest

from scoring.judge.decide.reliability import Reliability
from scoring.schema import Meta
from scoring.score.features import answer_unchecked, features_of, steps_against_answer
from scoring.score.fuse import GradeInputs, fuse
from scoring.score.tree import build_tree
from scoring.verdict import AnswerVerdict, CheckNote, StepVerdict
from tests.scoring.score.grades import features

STEPS = ["$3 \\times 4 = 12$", "$12 + 5 = 18$", "So the answer is 18."]


def report(verdicts, answer, mode="offline", **meta):
    labels = [v.label for v in verdicts]
    inputs = GradeInputs(
        steps=STEPS,
        verdicts=verdicts,
        tree=build_tree(labels, [[], [1], [2]]),
        problem_type="calculation",
        language="en",
        answer=answer,
    )
    return fuse(inputs, Meta(mode=mode, **meta))


def test_features_of_a_fused_offline_report():
    false = CheckNote("calculation_false", "error", "symbolic", "12 + 5 = 18 is false", True)
    verdicts = [
        StepVerdict("correct", "", evidence=("symbolic",), p_wrong=0.1),
        StepVerdict("incorrect", "", evidence=("symbolic",), p_wrong=0.9, checks=(false,)),
        StepVerdict("meaningless", "", evidence=("answer",), p_wrong=0.6),
    ]
    found = features_of(
        report(verdicts, AnswerVerdict("18", ("17",), symbolic=False), failed_checks=["x"])
    )
    assert (found.problem_type, found.verdict, found.mode) == ("calculation", "wrong", "offline")
    assert found.has_reference and found.answer_read and not found.step_logic_checked
    assert found.steps == 3 and found.wrong_steps == 2 and found.addressed == 0
    assert found.max_p_wrong == pytest.approx(0.9)
    assert found.sum_p_wrong == pytest.approx(1.6)
    assert found.verified_share == pytest.approx(1.0)
    assert found.failed_checks == ("x",)
    assert not found.unconfirmed_finding  # the error finding's step is labelled wrong
    assert found.model_reliability is None and not found.memory


def test_an_error_finding_on_a_step_not_labelled_wrong_is_unconfirmed():
    false = CheckNote("calculation_false", "error", "symbolic", "weak", False)
    verdicts = [
        StepVerdict("correct", ""),
        StepVerdict("unchecked", "", p_wrong=0.3, checks=(false,)),
        StepVerdict("correct", ""),
    ]
    found = features_of(report(verdicts, AnswerVerdict("18", ("18",), symbolic=True)))
    assert found.verdict == "right" and found.unconfirmed_finding
    assert found.verified_share == 0.0 and found.max_p_wrong == pytest.approx(0.3)


def test_a_models_reliability_is_read_in_llm_mode():
    verdicts = [StepVerdict("correct", "") for _ in STEPS]
    reliability = Reliability(0.8, 0.1, "measured", wrong=40, right=200)
    found = features_of(report(verdicts, AnswerVerdict(None, ()), mode="llm"), reliability)
    assert found.verdict == "none" and not found.has_reference and not found.answer_read
    assert found.step_logic_checked
    assert (found.model_reliability, found.model_steps) == ("measured", 40)
    assert found.model_youden == pytest.approx(0.7)
    assumed = features_of(report(verdicts, AnswerVerdict(None, ()), mode="llm"), Reliability())
    assert assumed.model_reliability == "assumed" and assumed.model_steps is None


@pytest.mark.parametrize(
    ("kw", "against"),
    [
        ({"score": 6, "wrong_steps": 1}, True),
        ({"score": 6, "wrong_steps": 0}, False),  # below 10 through expected points only
        ({"score": 10, "wrong_steps": 1}, False),
        ({"score": 6, "wrong_steps": 1, "verdict": "wrong"}, False),
        ({"score": 6, "wrong_steps": 1, "problem_type": "proof"}, False),
        ({"score": 6, "wrong_steps": 1, "mode": "llm", "step_logic_checked": True}, False),
    ],
)
def test_steps_against_answer(kw, against):
    assert steps_against_answer(features(**kw)) is against


@pytest.mark.parametrize(
    ("kw", "unchecked"),
    [
        ({"has_reference": False, "verdict": "none"}, True),
        ({"has_reference": True, "verdict": "none"}, False),
        ({"has_reference": False, "verdict": "right"}, False),  # a model decided it
        ({"has_reference": False, "verdict": "none", "problem_type": "proof"}, False),
    ],
)
def test_answer_unchecked(kw, unchecked):
    assert answer_unchecked(features(**kw)) is unchecked
