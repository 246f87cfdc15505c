"""Approximate values: the place a number is written to, and how close a rounded value must be."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.parse.approximation import close, significant_figures, written_place


@pytest.mark.parametrize(
    ("side", "place"),
    [
        ("0.67", (-2, True)),
        ("216", (0, False)),
        ("1,234.5", (-1, True)),
        (r"3.33 \times 10^{-3}", (-5, True)),
        ("2.5×10^4", (3, True)),
        ("x + 1", None),
    ],
)
def test_written_place(side: str, place) -> None:
    assert written_place(side) == place


def test_tolerance_is_the_written_place_and_one_percent_for_approximations() -> None:
    third = Fraction(1, 3)
    assert close(third, Fraction(33, 100), "1/3", "0.33", approximate=False)
    assert not close(
        Fraction(2, 5), Fraction(5, 10), "2/5", "0.5", approximate=False
    )  # exact at 1 place
    assert not close(Fraction(1000, 3), Fraction(333), "1000/3", "333", approximate=False)
    assert close(Fraction(1000, 3), Fraction(333), "1000/3", "333", approximate=True)
    assert close(Fraction(1000), Fraction(1009), "1000", "1009", approximate=True)  # < 1%
    assert not close(Fraction(1000), Fraction(1011), "1000", "1011", approximate=True)
    assert close(Fraction(8287), Fraction(8300), "8287", "8300", approximate=True, figures=2)
    assert significant_figures("to 3 significant figures") == 3
    assert significant_figures("保留3位有效数字") == 3
    assert significant_figures("3 decimal places") is None
