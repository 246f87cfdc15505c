"""Values established by earlier relations: single values, linear systems solved exactly, and
only what is unambiguous (a contradiction or a violated constraint drops values)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.parse.knowns import Equation, linear_row, solve_known


def eqs(*pairs: str) -> list[Equation]:
    """`"x = 4"` -> Equation("x", "4"); `"x > 7"` keeps its sign."""
    out = []
    for text in pairs:
        for op in ("<=", ">=", "!=", "=", "<", ">"):
            if f" {op} " in text:
                lhs, rhs = text.split(f" {op} ")
                out.append(Equation(lhs, rhs, op))
                break
    return out


@pytest.mark.parametrize(
    ("lhs", "rhs", "row"),
    [
        ("2*x + 3", "11", ({"x": Fraction(2)}, Fraction(8))),
        ("x + y", "10", ({"x": Fraction(1), "y": Fraction(1)}, Fraction(10))),
        ("x/2", "y - 1", ({"x": Fraction(1, 2), "y": Fraction(-1)}, Fraction(-1))),
        ("x**2", "4", None),  # not linear
        ("x*y", "6", None),
        ("3", "3", None),  # no variable
        ("a + b + c + d + e", "1", None),  # more symbols than MAX_SYMBOLS
        ("x +", "1", None),  # not mathematics
    ],
)
def test_linear_row(lhs, rhs, row):
    assert linear_row(Equation(lhs, rhs)) == row


def test_only_equations_are_rows():
    assert linear_row(Equation("x", "3", "<")) is None


def test_single_values_and_linear_systems_are_solved_exactly():
    assert solve_known(eqs("x = 4")) == {"x": Fraction(4)}
    assert solve_known(eqs("x + y = 10", "x - y = 2")) == {"x": Fraction(6), "y": Fraction(4)}
    assert solve_known(eqs("3*a = 1")) == {"a": Fraction(1, 3)}
    assert solve_known(eqs("x + y = 10")) == {}  # one equation, two unknowns


def test_the_most_recent_equation_wins_and_contradictions_are_dropped():
    """Taken most recent first, `x = 5` is the value; the older `x = 4` contradicts it and
    makes `x` ambiguous, so no value is kept."""
    assert solve_known(eqs("x = 4", "x = 5")) == {}
    assert solve_known(eqs("x = 4", "y = 2")) == {"x": Fraction(4), "y": Fraction(2)}


def test_a_violated_constraint_drops_every_value():
    assert solve_known(eqs("x > 7", "x = 6", "y = 1")) == {}
    assert solve_known(eqs("x > 7", "x = 8", "y = 1")) == {"x": Fraction(8), "y": Fraction(1)}
    assert solve_known(eqs("x != 2", "x = 2")) == {}
    assert solve_known(eqs("z < 0", "x = 2")) == {"x": Fraction(2)}  # about another variable


def test_nonlinear_and_unreadable_equations_are_skipped():
    assert solve_known(eqs("x**2 = 4", "y = 3")) == {"y": Fraction(3)}
    assert solve_known([Equation("x +", "1"), Equation("y", "2")]) == {"y": Fraction(2)}
    assert solve_known([]) == {}
