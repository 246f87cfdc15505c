"""Currency signs are blanked so amounts read as numbers, and math dollars stay."""

from __future__ import annotations

from scoring.parse.currency import without_currency_signs


def test_currency_signs_become_spaces_and_keep_positions() -> None:
    text = "pay $5 and $6, or ¥7"
    assert without_currency_signs(text) == "pay  5 and  6, or  7"
    assert without_currency_signs("$x$ and $y$") == "$x$ and $y$"
