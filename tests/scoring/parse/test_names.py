"""Names that look like products or like pi: `H2SO4`, `3 x 4`, a profit called pi."""

from __future__ import annotations

import sympy

from scoring.parse.mathparse import parse_math
from scoring.parse.names import cannot_be_pi, pi_is_named, with_times_signs, x_is_times


def test_names_that_look_like_products() -> None:
    assert parse_math("O2").free_symbols == {sympy.Symbol("O2")}
    assert parse_math("H2SO4 + 1").free_symbols == {sympy.Symbol("H2SO4")}
    assert parse_math("2x").free_symbols == {sympy.Symbol("x")}  # a number first is a product
    assert x_is_times("3 x 4 = 12") and x_is_times("3x4 = 12")
    assert not x_is_times("x = 5, so 2 x 3 = 30") and not x_is_times("2x + 3 = 7")
    assert not x_is_times("0x1F = 31")
    assert with_times_signs("3 x 4") == "3 × 4"


def test_pi_as_a_name() -> None:
    assert pi_is_named(r"Let $\pi$ be the profit.") and pi_is_named(r"设 $\pi$ 为利润")
    assert pi_is_named(r"$\pi(Q) = 20Q$")
    assert not pi_is_named(r"The area is $\pi r^2$.")
    assert cannot_be_pi(7900) and cannot_be_pi(0.5)
    assert not cannot_be_pi(3.5) and not cannot_be_pi(3.14)
