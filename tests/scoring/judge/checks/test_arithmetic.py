"""Closed arithmetic per step: a false relation speaks for an error, a checked true one for the
step, and a step with nothing to decide gives nothing."""

import pytest

from scoring.judge.checks.arithmetic import find_arithmetic, step_check
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict


def found(steps, problem=""):
    inp = JudgeInput(problem, steps, "calculation", AnswerVerdict(None, ()))
    return [(f.kind, f.step) for f in find_arithmetic(inp)]


@pytest.mark.parametrize(
    ("step", "kind"),
    [
        ("$3 \\times 4 = 12$", "calculation_true"),
        ("$3 \\times 4 = 13$", "calculation_false"),
        ("Total: 12 + 30 = 42 apples.", "calculation_true"),
        ("Total: 12 + 30 = 52 apples.", "calculation_false"),
        ("$2 + 3 = 5 = 6$", "calculation_false"),  # a chain is checked link by link
    ],
)
def test_a_decided_step_gives_one_finding(step, kind):
    assert found([step]) == [(kind, 0)]


@pytest.mark.parametrize(
    "step", ["Let x be the width.", "$2x + 3 = 11$", "We add the two amounts.", ""]
)
def test_a_step_without_closed_arithmetic_gives_nothing(step):
    assert found([step]) == []


def test_findings_follow_the_steps_and_name_the_false_relation():
    steps = ["$3 - 8 = 5$", "Let y be 2.", "$2 + 2 = 4$"]
    assert found(steps) == [("calculation_false", 0), ("calculation_true", 2)]
    [false, _] = find_arithmetic(JudgeInput("", steps, "calculation", AnswerVerdict(None, ())))
    assert "3 - 8 = 5" in false.detail and "-5" in false.detail


def test_the_problem_may_name_the_base_the_numerals_are_written_in():
    assert found(["$110 = 6$"]) == [("calculation_false", 0)]
    assert found(["$110 = 6$"], problem="Write 6 in binary.") == [("calculation_true", 0)]


def test_a_step_is_read_once_per_problem():
    step_check.cache_clear()
    found(["$3 \\times 4 = 12$"] * 3)
    assert step_check.cache_info().hits == 2
