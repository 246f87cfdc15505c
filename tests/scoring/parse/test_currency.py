"""Currency signs are blanked so amounts read as numbers, and math dollars stay."""

from __future__ import annotations

import pytest

from scoring.parse.currency import currency_dollars, without_currency_signs


def test_currency_signs_become_spaces_and_keep_positions() -> None:
    text = "pay $5 and $6, or ¥7"
    assert without_currency_signs(text) == "pay  5 and  6, or  7"
    assert without_currency_signs("$x$ and $y$") == "$x$ and $y$"


@pytest.mark.parametrize(
    ("text", "dollars"),
    [
        ("$1.60 + $0.40 = $2.00", [0, 8, 16]),  # odd on the line: every one is money
        ("$3$ apples and $4$ pears", []),  # pairs that close before a letter: math
        ("It costs $5 so $x = 5$", [9]),  # the rest still pairs up
        ("cost $5\nand $x$ is $6$", [5]),  # read line by line
        ("no dollars", []),
        ("$" * 70 + "5", []),  # too many on a line: all stay delimiters
    ],
)
def test_currency_dollars(text: str, dollars: list[int]) -> None:
    assert sorted(currency_dollars(text)) == dollars


def test_other_currency_signs_before_amounts_become_spaces() -> None:
    assert without_currency_signs("€ 5 and £7") == "  5 and  7"
    assert without_currency_signs("no signs here") == "no signs here"
