"""Relations that contradict the values earlier steps established, and the cases a step opens
that are not contradictions."""

import pytest

from scoring.judge.checks.contradiction import find_contradictions
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict


def found(steps):
    inp = JudgeInput("", steps, "calculation", AnswerVerdict(None, ()))
    return [(f.kind, f.step) for f in find_contradictions(inp)]


def test_a_value_used_against_an_earlier_one_is_a_contradiction():
    assert found(["We have $x = 4$.", "Then $2x = 10$."]) == [("contradiction", 1)]
    [finding] = find_contradictions(
        JudgeInput("", ["$x = 4$", "$2x = 10$"], "calculation", AnswerVerdict(None, ()))
    )
    assert finding.detail.startswith("contradicts earlier steps:")


@pytest.mark.parametrize(
    "steps",
    [
        ["We have $x = 4$.", "Then $2x = 8$."],
        ["If $m = 0$, then $m^2 = 0$.", "If $m = 2$, then $m^2 = 4$."],  # a new case
        ["若 $a = 1$，则 $a + 1 = 2$。", "当 $a = 3$ 时，$a + 1 = 4$。"],
        ["Let $y = 3$.", "So $x + y = 10$."],  # a new unknown, nothing to contradict
    ],
)
def test_consistent_steps_and_new_cases_give_nothing(steps):
    assert found(steps) == []


def test_a_step_with_false_arithmetic_is_left_to_the_arithmetic_check():
    assert found(["We have $x = 4$.", "Then $2x = 10$ and $3 + 3 = 7$."]) == []


def test_a_contradicting_step_does_not_become_a_known_value():
    """After `2x = 10` was called a contradiction, a later step is still read against `x = 4`
    (had it become known, `x` would be ambiguous and nothing more could be refuted)."""
    steps = ["We have $x = 4$.", "Then $2x = 10$.", "Then $3x = 15$."]
    assert found(steps) == [("contradiction", 1), ("contradiction", 2)]


def test_a_name_set_to_a_new_value_is_reused_not_contradicted():
    assert found(["$x = 4$", "So $x = 5$."]) == []
