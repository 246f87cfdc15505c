"""Bounded parsing of one side of a relation into an unevaluated sympy expression: LaTeX,
plain text and the ways students write numbers; None for anything that is not arithmetic
read safely."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
import sympy

from scoring.parse.mathparse import (
    MAX_CHARS,
    MAX_DIGITS,
    Refused,
    namespace,
    parse_math,
    preclean,
    to_python,
)
from scoring.parse.numeric import evaluate


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (r"\frac{3}{4} + 1", Fraction(7, 4)),
        ("2^{10}", Fraction(1024)),
        (r"3 \times 4", Fraction(12)),
        (r"3 \cdot 4", Fraction(12)),
        ("2(3+4)", Fraction(14)),
        ("−5 + 3", Fraction(-2)),  # a unicode minus
        (r"\left( 2 + 3 \right)", Fraction(5)),
        ("12,000", Fraction(12000)),  # thousands separators
        ("12 cm", Fraction(12)),  # a unit after a number
        (r"\sqrt{16}", Fraction(4)),
        ("2 1/2", Fraction(5, 2)),  # a mixed number
        ("2½", Fraction(5, 2)),
        ("0.333...", Fraction(1, 3)),  # a repeating decimal, exactly
        ("1.5e3", Fraction(1500)),
        (r"3.2 \times 10^{-4}", Fraction(32, 100000)),
        ("50% of 80", Fraction(40)),
        (r"\binom{5}{2}", Fraction(10)),
        ("5!", Fraction(120)),
        (r"\lfloor 3.7 \rfloor", Fraction(3)),
        ("|{-3}|", Fraction(3)),
        ("0b101", Fraction(5)),  # a base prefix
        ("101_2", Fraction(5)),  # a base subscript
        ("90°", Fraction(90)),  # degrees without a trigonometric function are a number
    ],
)
def test_numbers_as_written_are_read_exactly(text, value):
    assert evaluate(parse_math(text)) == value


def test_irrational_values_and_degrees_in_trigonometry():
    assert evaluate(parse_math("5√2")) == pytest.approx(5 * math.sqrt(2))
    assert evaluate(parse_math(r"\sin 30°")) == pytest.approx(0.5)


def test_the_tree_is_left_unevaluated():
    """`3 + 4` stays a sum, so a step's own arithmetic can be checked."""
    expr = parse_math("3 + 4")
    assert isinstance(expr, sympy.Add) and set(expr.args) == {sympy.Integer(3), sympy.Integer(4)}
    assert parse_math("12") == sympy.Integer(12)


def test_letters_are_symbols():
    assert parse_math("2x + 1").free_symbols == {sympy.Symbol("x")}
    assert parse_math(r"\pi r^2").free_symbols == {sympy.Symbol("r")}


@pytest.mark.parametrize(
    "text",
    [
        "hello world",
        "3 apples",
        "",
        "   ",
        r"\frac{1}{2",  # unbalanced
        "import os",
        "__import__('os')",
        "x" * (MAX_CHARS + 1),  # too long
        "1" * (MAX_DIGITS + 10),  # too many digits
        "(" * 14 + "1" + ")" * 14,  # nested too deeply
    ],
)
def test_what_is_not_arithmetic_read_safely_is_none(text):
    assert parse_math(text) is None


def test_to_python_refuses_with_a_reason():
    with pytest.raises(Refused, match="too long"):
        to_python("1+" * MAX_CHARS)
    with pytest.raises(Refused, match="empty"):
        to_python("°")  # nothing left once cleaned
    with pytest.raises(Refused, match="unsupported command"):
        to_python(r"\quad")
    assert to_python("2x + y") == ("2*x+y", frozenset({"x", "y"}))


def test_preclean_drops_sizing_and_units_and_reads_unicode():
    assert preclean(r"\left( 3 \right) + \displaystyle 5 cm").split() == ["(", "3", ")", "+", "5"]
    assert preclean("1,234 + 5 kg") == "1234 + 5"
    assert preclean("3 × 4 − 1") == "3 * 4 - 1"
    assert preclean("") == ""


def test_the_namespace_is_fresh_and_has_no_builtins():
    first, second = namespace(), namespace()
    assert first is not second and first["__builtins__"] == {}
    first["x"] = 1
    assert "x" not in namespace()
    assert evaluate(first["factorial"](sympy.Integer(4))) == 24  # left unevaluated, then read
