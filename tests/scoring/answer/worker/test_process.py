"""The worker's numeric screen: two answers that are different functions are told apart at
sample points before sympy simplifies them; anything it cannot show different goes to `verify`."""

from __future__ import annotations

import pytest
from math_verify import parse, verify

from scoring.answer.worker import WORKER_READINGS
from scoring.answer.worker.process import AFTER_MATH_VERIFY, compare, differ_at_sample_points, wrap


def _parsed(answer: str) -> list[object]:
    return parse(wrap(answer), parsing_timeout=None)


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        (r"\frac{1}{2}(\sin x - \cos x) + C", r"\frac{1}{2}(\sin x + \cos x) + C"),
        (r"\ln(x + 1)", r"\ln(x) + 1"),
        (r"\sqrt{x + 1}", r"\sqrt{x} + 1"),
        (r"\lfloor \log_2 n \rfloor + 1", "n"),  # sympy's evalf needs its own floats here
    ],
)
def test_different_functions_are_told_apart(gold, pred):
    assert differ_at_sample_points(_parsed(gold), _parsed(pred))
    assert compare([gold], pred, 6) is False


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        (r"\sin^2 x + \cos^2 x + x", "1 + x"),  # equal: left to verify, which says so
        (r"2 \sin x \cos x", r"\sin 2x"),
        (r"\ln(x^2)", r"2 \ln x"),  # equal where both are defined: verify decides
        ("x^2 + 1", "x^2 + 2"),  # a polynomial: verify is quick there
        (r"\text{odd}", "odd"),  # a word read as a product of letters
        ("x = 2", "2x = 4"),  # equations
        ("3", r"\frac{6}{2}"),  # numbers
    ],
)
def test_what_it_cannot_show_different_goes_to_verify(gold, pred):
    assert not differ_at_sample_points(_parsed(gold), _parsed(pred))


def test_the_screen_never_changes_verifys_equalities():
    pairs = [
        (r"\sin^2 x + \cos^2 x + x", "1 + x"),
        (r"2 \sin x \cos x", r"\sin 2x"),
        (r"\text{odd}", "odd"),
        (r"\frac{x^2 - 1}{x - 1}", "x + 1"),
    ]
    for gold, pred in pairs:
        assert compare([gold], pred, 6) is verify(_parsed(gold), _parsed(pred))


@pytest.mark.parametrize(
    ("gold", "pred", "reading"),
    [
        # two antiderivatives a constant apart: sin^2 x = (1 - cos 2x) / 2
        (r"\sin^2 x + C", r"-\frac{1}{2}\cos 2x + C", "antiderivative"),
        (r"\ln|x| + C", r"\ln|3x| + C", "antiderivative"),
        (r"\arctan x + C", r"-\arctan\frac{1}{x} + C_1", "antiderivative"),  # a constant on x > 0
        # equal where the letters are positive: lengths, as a pyramid's angle
        (r"\arccos\frac{a}{\sqrt{4h^2 + a^2}}", r"\arctan\frac{2h}{a}", "positive_values"),
        (r"\sqrt{a^2 b^2}", "a b", "positive_values"),
        # an interval and the condition that describes it
        (r"(-\infty, 1) \cup (2, +\infty)", "x<1或x>2", "solution_set"),
        (r"[2, +\infty)", r"a \geq 2", "solution_set"),
        (r"(1, 3)", r"x > 1 \text{ and } x < 3", "solution_set"),
        (r"x \in (0, 1)", "0 < x < 1", "solution_set"),
        (r"(-\infty, -1] \cup [3, +\infty)", r"\{x \mid x \le -1 或 x \ge 3\}", "solution_set"),
    ],
)
def test_the_workers_readings_equate_what_math_verify_leaves_apart(gold, pred, reading):
    assert not verify(_parsed(gold), _parsed(pred))
    assert compare([gold], pred, 6) == reading


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        (r"\sin^2 x + C", r"\cos^2 x + C"),  # a function apart, not a constant
        (r"x^2 + C", "x^2 + 2"),  # one side has no constant of integration
        (r"x^2 + C", r"x^3 + C"),
        ("|x|", "x"),  # an absolute value says the sign matters
        (r"\sqrt{x^2}", "-x"),
        ("a + b", "a + c"),  # other letters
        ("x + 1", "x + 2"),
        ("3", "4"),  # numbers: math-verify's
        ("x = 2", "x = 3"),
        (r"[2, +\infty)", "x > 2"),  # an end point in or out
        (r"(1, 3)", "x > 1 或 x < 3"),  # "or" is a union, "and" an intersection
        (r"(-\infty, -1] \cup [3, +\infty)", r"x \le -1 或 x > 3"),
        ("a > 2", "x > 2"),  # two conditions on different variables
        ("x > 2", "x > 2 或 y > 1"),  # a condition on two variables is not a set of reals
    ],
)
def test_the_workers_readings_leave_different_answers_different(gold, pred):
    assert compare([gold], pred, 6) is False


def test_the_parent_knows_every_reading_the_worker_answers_with():
    assert tuple(name for name, _ in AFTER_MATH_VERIFY) == WORKER_READINGS


def test_a_condition_that_is_not_solved_is_left_to_math_verify():
    """Only linear inequalities are solved into sets: sympy takes minutes on `x^{100} - ...`,
    which would turn math-verify's quick "different" into a time-out."""
    assert compare(["(1, 2)"], "x^{100}-3x^{57}+2>0", 6) is False
    assert compare(["(2, 3)"], "x^2-5x+6<0", 6) is False
