"""Solution sets written as intervals or as conditions on one variable are one answer."""

import pytest

from scoring.answer.compare import compare_answers


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("2", "x<1或x>2"),  # a bound of the condition is not its value
        ("3", "x>1 且 x<3"),
        ("2", "a 的取值范围是 a>2"),
    ],
)
def test_a_condition_is_not_restated_as_its_bound(gold, pred):
    assert compare_answers(gold, pred).verdict is False


def test_an_interval_equals_its_condition():
    result = compare_answers(r"(-\infty,1)\cup(2,+\infty)", "x<1或x>2")
    assert (result.verdict, result.reading, result.route) == (True, "solution_set", "math_verify")
