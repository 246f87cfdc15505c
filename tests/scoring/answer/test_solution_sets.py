"""Solution sets written as intervals or as conditions on one variable are one answer."""

import pytest
import sympy
from math_verify import parse

from scoring.answer.compare import compare_answers
from scoring.answer.solution_sets import condition_set, same_solution_set, written_set


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


@pytest.mark.parametrize(
    ("text", "reals"),
    [
        (
            "x<1或x>2",
            sympy.Union(sympy.Interval.open(-sympy.oo, 1), sympy.Interval.open(2, sympy.oo)),
        ),
        ("x > 1 and x < 3", sympy.Interval.open(1, 3)),  # "and" is an intersection
        ("1 < x < 3", sympy.Interval.open(1, 3)),  # a chained inequality
        (r"\{x \mid x \geq 2\}", sympy.Interval(2, sympy.oo)),  # set-builder braces
        (
            "x<1$ 或 $x>2",
            sympy.Union(sympy.Interval.open(-sympy.oo, 1), sympy.Interval.open(2, sympy.oo)),
        ),
    ],
)
def test_condition_set(text, reals):
    found, variables = condition_set(text, parse)
    assert found == reals and {v.name for v in variables} == {"x"}


@pytest.mark.parametrize(
    "text",
    [
        "x = 2",  # an equality is a value, not a condition
        "x^2 < 4",  # not solved for its variable
        "x < y",  # two variables
        "x > 1 or y < 2",
        "3",
    ],
)
def test_what_is_not_a_condition_on_one_variable(text):
    assert condition_set(text, parse) is None


def test_written_set_reads_intervals_only():
    assert written_set(parse("$(1, 3)$")) == sympy.Interval.open(1, 3)
    assert written_set(parse("$3$")) is None
    assert written_set([]) is None


def both(text):
    return (text, parse(f"${text}$"))


def test_same_solution_set_needs_a_condition_on_one_side_and_one_variable():
    assert same_solution_set(both(r"(-\infty,1)\cup(2,+\infty)"), both("x<1或x>2"), parse)
    assert not same_solution_set(
        both("(1,3)"), both("(1,3)"), parse
    )  # two intervals: math-verify's
    assert not same_solution_set(both("a>2"), both("x>2"), parse)  # other variables
    assert not same_solution_set(both("x > 1 and x < 3"), both("x > 1 or x < 3"), parse)
