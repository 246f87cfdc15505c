"""A step equal to an earlier one up to spacing, punctuation, dollars and case is a repeat."""

import pytest

from scoring.judge.checks.repeat import find_repeats
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict


def found(steps):
    inp = JudgeInput("", steps, "calculation", AnswerVerdict(None, ()))
    return [(f.step, f.detail) for f in find_repeats(inp)]


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (["$3 \\times 4 = 12$.", "$3 \\times 4 = 12$.", "So 12."], [(1, "repeats step 1")]),
        (["So x = 2.", "so  X = 2", "SO x=2"], [(1, "repeats step 1")]),  # `x=2` is not `x = 2`
        (["设 x = 2。", "设 x = 2", "设 x = 2；"], [(1, "repeats step 1"), (2, "repeats step 1")]),
        (["a", "b", "a", "b"], [(2, "repeats step 1"), (3, "repeats step 2")]),
        (["x = 2", "x = 3"], []),
        (["", "  ", "$$"], []),  # empty steps repeat nothing
    ],
)
def test_repeats(steps, expected):
    assert found(steps) == expected
