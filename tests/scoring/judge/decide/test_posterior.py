"""P(step wrong) from a hand-made calibration: a prior of 10% and round likelihood ratios, so
each case shows the arithmetic of the posterior and cannot drift with a refit."""

import math

import pytest

from scoring.judge.calibration import Calibration, KindStats, Platt, StepModel
from scoring.judge.decide.posterior import (
    check_state,
    memory_log_odds,
    posterior_without,
    posteriors,
    sigmoid,
)
from scoring.judge.decide.reliability import Reliability
from scoring.judge.findings import Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict

WEIGHTS = {
    "bias": math.log(0.1 / 0.9),
    "finding:calculation_false": math.log(9),
    "finding:calculation_true": math.log(0.5),
    "finding:unexplained_number": math.log(3),
}
KINDS = {
    "calculation_false": KindStats(20, 5, 0.8, 9.0, True),
    "calculation_true": KindStats(10, 90, 0.9, 0.5, True),
    "unexplained_number": KindStats(10, 30, 0.25, 3.0, False),  # only warns
}
MEMORY = {
    "memory_mistake": KindStats(8, 2, 0.8, 4.0, True),
    "memory_accepted": KindStats(1, 9, 0.9, 0.25, True),
}
CAL = Calibration("t", {"en": StepModel(WEIGHTS, 0.5)}, KINDS, memory_kinds=MEMORY)
NO_ANSWER = AnswerVerdict(None, ())


def inp(n=1):
    return JudgeInput("", [f"step {i}" for i in range(n)], "calculation", NO_ANSWER)


def evidence(n, *found):
    return Evidence(tuple(Finding(k, s, k) for k, s in found), tuple(() for _ in range(n)))


def test_sigmoid_is_the_logistic_function_and_never_overflows():
    assert sigmoid(0.0) == 0.5
    assert sigmoid(math.log(3)) == pytest.approx(0.75)
    assert sigmoid(-math.log(3)) == pytest.approx(0.25)
    assert sigmoid(1000.0) == 1.0 and sigmoid(-1000.0) == 0.0


@pytest.mark.parametrize(
    ("kinds", "log_odds", "state"),
    [
        (("calculation_false",), 2.0, "fails"),
        (("calculation_false", "calculation_true"), 0.0, "unchecked"),  # they cancel out
        (("calculation_false", "calculation_true"), -1.0, "unchecked"),
        (("calculation_true",), -1.0, "holds"),
        ((), 0.0, "unchecked"),
    ],
)
def test_check_state(kinds, log_odds, state):
    assert check_state([Finding(k, 0, "") for k in kinds], log_odds) == state


def test_the_prior_alone_gives_its_probability_and_no_state():
    [post] = posteriors(inp(), evidence(1), CAL)
    assert post.p_wrong == pytest.approx(0.1) and post.p_decide == pytest.approx(0.1)
    assert (post.state, post.counted, post.warned, post.strongest) == ("unchecked", (), (), None)
    assert post.evidence_log_odds == 0.0


def test_a_refuting_finding_multiplies_the_odds_and_fails_the_step():
    [post] = posteriors(inp(), evidence(1, ("calculation_false", 0)), CAL)
    assert post.p_decide == pytest.approx(0.5)  # odds 1/9 x 9
    assert post.p_wrong == pytest.approx(0.8)  # at least the kind's measured precision
    assert post.state == "fails" and post.strongest == Finding(
        "calculation_false", 0, "calculation_false"
    )
    assert post.evidence_log_odds == pytest.approx(math.log(9))


def test_a_warning_moves_the_reported_probability_but_not_the_decisive_one():
    [post] = posteriors(inp(), evidence(1, ("unexplained_number", 0)), CAL)
    assert post.p_wrong == pytest.approx(0.25)  # odds 1/9 x 3
    assert post.p_decide == pytest.approx(0.1)
    assert post.counted == () and [f.kind for f in post.warned] == ["unexplained_number"]
    assert post.state == "unchecked"


def test_a_kind_counts_once_however_often_it_fires():
    [once] = posteriors(inp(), evidence(1, ("calculation_false", 0)), CAL)
    [twice] = posteriors(
        inp(), evidence(1, ("calculation_false", 0), ("calculation_false", 0)), CAL
    )
    assert twice.p_wrong == pytest.approx(once.p_wrong)


def test_a_refuted_step_is_at_least_as_likely_wrong_as_its_check_is_precise():
    """A recalibration that would pull a refuted step below the check's precision is floored."""
    model = StepModel(WEIGHTS, 0.5, recalibration={"any": Platt(1.0, -5.0)})
    cal = Calibration("floor", {"en": model}, KINDS)
    [refuted] = posteriors(inp(), evidence(1, ("calculation_false", 0)), cal)
    assert refuted.p_wrong == pytest.approx(0.8)
    [plain] = posteriors(inp(), evidence(1), cal)
    assert plain.p_wrong == pytest.approx(sigmoid(math.log(1 / 9) - 5.0))
    assert plain.p_decide == pytest.approx(0.1)  # the decision reads the raw sum


def test_a_models_label_adds_its_likelihood_ratio():
    reliability = Reliability(0.8, 0.2)
    says = posteriors(inp(2), evidence(2), CAL, [True, None], reliability)
    assert says[0].p_wrong == pytest.approx(4 / 13)  # odds 1/9 x 4
    assert says[0].p_decide == pytest.approx(4 / 13)
    assert says[0].evidence_log_odds == pytest.approx(math.log(4))
    assert says[1].p_wrong == pytest.approx(0.1)  # no label for this step
    right = posteriors(inp(), evidence(1), CAL, [False], reliability)[0]
    assert right.p_wrong == pytest.approx(1 / 37)  # odds 1/9 x 1/4


def test_memory_findings_count_by_their_measured_likelihood_ratio():
    assert memory_log_odds(CAL, ["memory_mistake", "memory_mistake"]) == pytest.approx(math.log(4))
    assert memory_log_odds(CAL, ["memory_mistake", "memory_accepted"]) == pytest.approx(0.0)
    assert memory_log_odds(CAL, ["calculation_false", "memory_divergence"]) == 0.0  # unmeasured
    [post] = posteriors(inp(), evidence(1, ("memory_mistake", 0)), CAL)
    assert post.p_wrong == pytest.approx(4 / 13) and post.p_decide == pytest.approx(4 / 13)
    assert post.state == "fails"


def test_posterior_without_leaves_the_named_kinds_out():
    found = evidence(2, ("calculation_false", 1), ("unexplained_number", 1))
    full = posteriors(inp(2), found, CAL)[1]
    without = posterior_without(inp(2), found, CAL, 1, ["calculation_false"])
    assert full.state == "fails" and without.state == "unchecked"
    assert without.p_wrong == pytest.approx(0.25) and without.p_decide == pytest.approx(0.1)
