"""The best guess at the first wrong step: the decision rule's pick, a sure error, the cause of
a wrong answer, or the model's labels; and its probability under the steps' P(wrong)."""

import pytest

from scoring.judge.calibration import Calibration, KindStats, StepModel
from scoring.judge.decide.first_error import (
    SURE_PRECISION,
    answer_cause,
    first_error_probability,
    guessed_wrong,
    likely_first_error,
    sure_error,
)
from scoring.judge.decide.posterior import StepPosterior
from scoring.judge.findings import Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict, FirstErrorGuess

KINDS = {
    "calculation_false": KindStats(20, 2, 0.9, 9.0, True),
    "rewrite": KindStats(10, 10, 0.5, 1.0, True),
}
CAL = Calibration("t", {"en": StepModel({}, 0.5)}, KINDS)
WRONG = AnswerVerdict("5", ("4",), symbolic=False)
RIGHT = AnswerVerdict("4", ("4",), symbolic=True)


def post(p, *kinds, log_odds=0.0):
    counted = tuple(Finding(k, 0, k) for k in kinds)
    return StepPosterior(p, p, counted, (), None, log_odds)


def inp(n, answer=RIGHT, problem_type="calculation"):
    return JudgeInput("", [f"s{i}" for i in range(n)], problem_type, answer)


def no_evidence(n):
    return Evidence((), tuple(() for _ in range(n)))


@pytest.mark.parametrize(
    ("p_wrong", "step", "probability"),
    [
        ([0.5, 0.2], 0, 0.5),
        ([0.5, 0.2], 1, 0.5 * 0.2),
        ([0.5, 0.2], None, 0.5 * 0.8),
        ([], None, 1.0),
        ([0.0, 0.0, 1.0], 2, 1.0),
    ],
)
def test_first_error_probability(p_wrong, step, probability):
    assert first_error_probability(p_wrong, step) == pytest.approx(probability)


def test_a_sure_error_needs_a_precise_kind_and_evidence_that_says_wrong():
    assert KINDS["calculation_false"].precision >= SURE_PRECISION
    assert sure_error(post(0.2, "calculation_false", log_odds=1.0), CAL)
    assert not sure_error(post(0.2, "calculation_false", log_odds=-0.5), CAL)  # outweighed
    assert not sure_error(post(0.2, "rewrite", log_odds=1.0), CAL)  # imprecise kind
    assert not sure_error(post(0.2, "calculation_true", log_odds=1.0), CAL)  # support
    assert not sure_error(post(0.2, "contradiction", log_odds=1.0), CAL)  # never measured


def test_a_wrong_answer_names_its_likeliest_cause_when_nothing_else_is_wrong():
    posts = [post(0.3), post(0.6), post(0.6), post(0.2)]
    assert answer_cause(inp(4, WRONG), posts, [False] * 4) == 2  # the later on a tie
    assert answer_cause(inp(4, WRONG), posts, [True, False, False, False]) is None
    assert answer_cause(inp(4, RIGHT), posts, [False] * 4) is None
    assert answer_cause(inp(4, WRONG, "proof"), posts, [False] * 4) is None
    assert answer_cause(inp(0, WRONG), [], []) is None


def test_the_threshold_rule_and_a_sure_error():
    posts = [post(0.2), post(0.4, "calculation_false", log_odds=1.0), post(0.7)]
    assert guessed_wrong(inp(3), no_evidence(3), CAL, posts) == [False, True, True]
    strict = Calibration("t", {"en": StepModel({}, 0.75)}, KINDS)
    assert guessed_wrong(inp(3), no_evidence(3), strict, posts) == [False, True, False]


def test_the_expected_rule_picks_the_likeliest_steps():
    model = StepModel({}, 0.5, decision="expected")
    cal = Calibration("t", {"en": model}, KINDS)
    none_likely = [post(0.01), post(0.01), post(0.01)]
    assert guessed_wrong(inp(3), no_evidence(3), cal, none_likely) == [False] * 3
    all_likely = [post(0.99), post(0.99), post(0.99)]
    assert guessed_wrong(inp(3), no_evidence(3), cal, all_likely) == [True] * 3
    one_likely = [post(0.1), post(0.9), post(0.2)]
    assert guessed_wrong(inp(3), no_evidence(3), cal, one_likely) == [False, True, False]


def test_likely_first_error_by_the_rule_or_by_the_models_labels():
    posts = [post(0.2), post(0.7), post(0.9)]
    guess = likely_first_error(inp(3), no_evidence(3), CAL, posts)
    assert guess == FirstErrorGuess(1, pytest.approx(0.8 * 0.7))
    judged = likely_first_error(
        inp(3), no_evidence(3), CAL, posts, judged=["correct", "correct", "incorrect"]
    )
    assert judged == FirstErrorGuess(2, pytest.approx(0.8 * 0.3 * 0.9))
    clean = likely_first_error(inp(3), no_evidence(3), CAL, posts, judged=["correct"] * 3)
    assert clean == FirstErrorGuess(None, pytest.approx(0.8 * 0.3 * 0.1))
    assert likely_first_error(inp(0), no_evidence(0), CAL, []) is None
