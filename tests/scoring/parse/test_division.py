"""Division with a remainder and counts rounded to whole items."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.parse.division import is_whole_count, quotient_remainder, states_remainder


@pytest.mark.parametrize(
    ("exact", "shown", "round_up", "whole"),
    [
        (Fraction(1000, 3), Fraction(333), False, True),
        (Fraction(1000, 3), Fraction(334), False, False),
        (Fraction(1000, 3), Fraction(334), True, True),
        (Fraction(1000, 3), Fraction(335), True, False),
        (Fraction(12), Fraction(12), False, False),  # a whole quotient needs no reading
        (Fraction(7, 2), Fraction(7, 2), False, False),
        (3.5, Fraction(3), False, True),
    ],
)
def test_is_whole_count(exact, shown, round_up: bool, whole: bool) -> None:
    assert is_whole_count(exact, shown, round_up) is whole


def test_quotient_and_remainder_notations() -> None:
    assert quotient_remainder("so 17 ÷ 5 = 3 R 2 and") == [("17", "5", "3", "2", "17 ÷ 5 = 3 R 2")]
    assert quotient_remainder(r"$17 \div 5 = 3 \text{ remainder } 2$")[0][:4] == (
        "17",
        "5",
        "3",
        "2",
    )
    assert quotient_remainder("17 ÷ 5 = 3 余 2")[0][:4] == ("17", "5", "3", "2")
    assert quotient_remainder("17 ÷ 5 = 3……2")[0][:4] == ("17", "5", "3", "2")
    assert quotient_remainder("17 ÷ 5 = 3.4") == []
    assert states_remainder("3 R 2") and states_remainder(r"3 \text{ remainder } 2")
    assert not states_remainder("3 + 2")
