"""Bounded evaluation of unevaluated sympy trees: exact while rational, floats after irrational
steps, and `Unevaluable` before anything too large is computed."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy
from sympy.parsing.sympy_parser import parse_expr

from scoring.parse.numeric import (
    MAX_FACTORIAL,
    Unevaluable,
    evaluate,
    evaluator,
    exact,
    format_value,
    relative_difference,
    to_float,
)


def value(text: str, **values):
    return evaluate(parse_expr(text, evaluate=False), values)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0.1 + 0.2", Fraction(3, 10)),  # exactly, not 0.30000000000000004
        ("2**10", Fraction(1024)),
        ("2**-2", Fraction(1, 4)),
        ("(27/8)**(1/3)", Fraction(3, 2)),  # an exact root stays exact
        ("(-8)**(1/3)", Fraction(-2)),
        ("factorial(5)", Fraction(120)),
        ("binomial(5, 2)", Fraction(10)),
        ("binomial(5, -1)", Fraction(0)),
        ("Abs(-7/2)", Fraction(7, 2)),
        ("floor(7/2) + ceiling(7/2)", Fraction(7)),
    ],
)
def test_rational_arithmetic_is_exact(text, expected):
    got = value(text)
    assert isinstance(got, Fraction) and got == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("2**(1/2)", math.sqrt(2)), ("sin(pi/6)", 0.5), ("log(exp(2))", 2.0), ("pi", math.pi)],
)
def test_irrational_steps_give_floats(text, expected):
    got = value(text)
    assert isinstance(got, float) and got == pytest.approx(expected)


def test_symbols_take_the_values_given():
    assert value("2*x + y", x=Fraction(3), y=Fraction(1, 2)) == Fraction(13, 2)
    with pytest.raises(Unevaluable, match="free symbol x"):
        value("2*x + 1")


@pytest.mark.parametrize(
    "text",
    [
        "9**(9**(9**9))",  # refused before it is computed
        "factorial(5/2)",
        "1/0",
        "0**-1",
        "(-4)**(1/2)",
        "(-2)**(1/13)",  # a fractional power of a negative number, not a rational root
        "log(0)",
        "10**(10**5)",  # an exact power beyond the bits allowed
    ],
)
def test_what_cannot_be_evaluated_in_bounds_is_unevaluable(text):
    with pytest.raises(Unevaluable):
        value(text)


def test_factorials_are_bounded():
    assert evaluate(sympy.factorial(sympy.Integer(MAX_FACTORIAL), evaluate=False)) > 0
    with pytest.raises(Unevaluable, match="factorial out of range"):
        evaluate(sympy.factorial(sympy.Integer(MAX_FACTORIAL + 1), evaluate=False))


def test_an_evaluator_gives_what_evaluate_gives_at_every_point():
    expr = parse_expr("x**2 - 3*x + 2 + 2**10", evaluate=False)
    at = evaluator(expr, "x")
    for x in (Fraction(0), Fraction(1), Fraction(5, 2), 0.5):
        assert at(x) == evaluate(expr, {"x": x})
    broken = evaluator(parse_expr("x + 1/0", evaluate=False), "x")
    for x in (Fraction(1), Fraction(2)):
        with pytest.raises(Unevaluable):
            broken(x)


def test_conversions_never_overflow():
    big = Fraction(10) ** 400
    assert to_float(big) == math.inf and to_float(-big) == -math.inf
    assert to_float(Fraction(1, 4)) == 0.25
    assert exact(0.5) == Fraction(1, 2) and exact(Fraction(2, 3)) == Fraction(2, 3)
    assert exact(math.inf) is None and exact(math.nan) is None


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (Fraction(10) ** 400, Fraction(10) ** 400 + 1, 0.0),  # tiny relative to the size
        (Fraction(1), Fraction(2), 0.5),
        (Fraction(0), Fraction(1, 2), 0.5),  # absolute below 1
        (math.inf, math.inf, 0.0),
        (math.inf, Fraction(1), math.inf),
    ],
)
def test_relative_difference(a, b, expected):
    assert relative_difference(a, b) == pytest.approx(expected, abs=1e-300)


@pytest.mark.parametrize(
    ("value_", "text"),
    [
        (Fraction(1, 2), "0.5"),
        (Fraction(50, 100), "0.5"),
        (Fraction(-3, 4), "0.75"),  # signs dropped
        (Fraction(7), "7"),
        (Fraction(1, 3), "1/3"),
        (Fraction(1, 8), "0.125"),
        (0.333333333333, "0.333333"),
    ],
)
def test_format_value(value_, text):
    assert format_value(value_) == text
