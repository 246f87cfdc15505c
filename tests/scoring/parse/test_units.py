"""Units and currencies read as quantities: a correct step of each shape is not read as false,
and a really false step of the same shape still is (so the reading cannot switch the check off)."""

from __future__ import annotations

import pytest

from scoring.parse.equations import check_step
from scoring.parse.units import is_conversion, units_of


@pytest.mark.parametrize(
    ("correct", "false"),
    [
        # currency signs before amounts, not TeX delimiters
        ("The total is $1.60 + $0.40 = $2.00.", "The total is $1.60 + $0.40 = $2.10."),
        (
            "It costs $1.60 + $0.40 = $2.00 in total, so $2.00 is the answer.",
            "It costs $1.60 + $0.40 = $2.20 in total, so $2.20 is the answer.",
        ),
        (
            "Ticket and snack: $12 + $5 = $17, and $x$ is the change.",
            "Ticket and snack: $12 + $5 = $18, and $x$ is the change.",
        ),
        ("She pays €5 + €3 = €8.", "She pays €5 + €3 = €9."),
        ("共花费 ¥20 × 3 = ¥60", "共花费 ¥20 × 3 = ¥50"),
        (
            "Profit = Revenue - $2,800 = $7,000 - $2,800 = $4,200.",
            "Profit = Revenue - $2,800 = $7,000 - $2,800 = $4,300.",
        ),
        # units on the result only: a computation, compared as numbers
        ("3 × 4 = 12元", "3 × 4 = 13元"),
        (r"$12 \text{ cm} \times 3 = 36 \text{ cm}$", r"$12 \text{ cm} \times 3 = 38 \text{ cm}$"),
        ("2 hours + 1 hour = 3 hours", "2 hours + 1 hour = 4 hours"),
        ("$30° + 60° = 90°$", "$30° + 60° = 100°$"),
        ("总面积 = 5 平方米 + 3 平方米 = 8 平方米", "总面积 = 5 平方米 + 3 平方米 = 9 平方米"),
        # a number in scientific notation is one number
        (r"$6 / 2 \times 10^{3} = 0.003$", r"$6 / 2 \times 10^{3} = 0.03$"),
        ("$1.5e-3 \\times 2 = 0.003$", "$1.5e-3 \\times 2 = 0.03$"),
    ],
)
def test_quantities_are_read_with_their_units(correct: str, false: str) -> None:
    assert check_step(correct).verdict == "true", check_step(correct).evidence
    assert check_step(false).verdict == "false", check_step(false).evidence


@pytest.mark.parametrize(
    "step",
    [
        "1 加仑 = 3.78541 升 = 3.78541×10^-3 立方米",
        "3.78541 升 = 3.78541×10^-3",  # the target unit left unsaid
        "总体积 5000立方米 = 5000 * 1000 升",
        "2 hours = 120 minutes",
        "2 hours = 120",
        r"$180° = \pi$",
        "1 km = 1000 m",
        "25 千瓦 × 3996 秒 = 25 × 10^3 × 3996 焦耳",
    ],
)
def test_unit_conversions_are_not_compared_as_plain_numbers(step: str) -> None:
    assert check_step(step).verdict == "unknown", check_step(step).evidence


@pytest.mark.parametrize(
    ("lhs", "rhs", "conversion"),
    [
        ("1 km", "1000 meters", True),
        ("5000 立方米", "5000 * 1000", True),
        ("2 hours", "120", True),
        ("180°", r"\pi", True),
        ("3 × 4", "12 元", False),
        ("3 元 × 4", "13", False),
        ("3 cm + 4 cm", "7 cm", False),
        ("3 + 4", "7", False),
    ],
)
def test_is_conversion(lhs: str, rhs: str, conversion: bool) -> None:
    assert is_conversion(lhs, rhs) is conversion


def test_units_of_normalises_plurals_powers_and_degrees() -> None:
    assert units_of(r"3 cm^2 + 4 \text{cm}") == {"cm"}
    assert units_of("2 hours") == {"hour"}
    assert units_of("60° and 5 米") == {"degree", "米"}
    assert units_of("x + 3") == frozenset()
