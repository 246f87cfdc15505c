"""Integer division and remainders.

Counting whole things, "1000 ÷ 3 = 333" means "333 whole boxes", not the false 1000/3 = 333: in
a step about remainders, whole items, "at most" / "最多" (lexicon `COUNTING_WORDS`), a whole
number shown for a quotient that is not whole is read as the quotient rounded down, or up when
the step counts what is needed ("at least", "需要", lexicon `ROUND_UP_WORDS`: a partly filled box
is still a box). Any other whole number stays a false quotient ("1000 ÷ 3 = 330").

A side written wholly in square brackets, `[22.8] = 22`, may be the integer part [x] (the
greatest-integer function, common in Chinese and olympiad texts): read so when grouping makes
the relation false and the other side is the integer part.

"q R r", "q 余 r", "q remainder r", and the schoolbook "q……r" state a quotient and a remainder:
"a ÷ b = q R r" holds when a = b·q + r with 0 <= r < b, and is read as exactly those two relations.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from scoring.parse.lexicon import DECIMAL, ELLIPSIS, latex

Value = Fraction | float

_DIVISION = re.compile(r"÷|\\div(?![A-Za-z])|(?<![/])/(?!/)|" + latex.FRAC + "(?![A-Za-z])")
_NUMBER = r"\(?\s*(" + DECIMAL + r")\s*\)?"
_REMAINDER_SIGN = (
    r"(?:\\text\s*\{\s*)?(?:余|R|r|rem|remainder|(?:with\s+)?(?:a\s+)?remainder\s+(?:of\s+)?|"
    r"…{1,2}|\.{3,6}|" + ELLIPSIS + r")(?:\s*\})?"
)
_BRACKETED = re.compile(r"\s*(?:\\left\s*)?\[[^\[\]]+(?:\\right\s*)?\]\s*")
_QUOTIENT_AND_REMAINDER = re.compile(
    r"\s*\d+\s*,?\s*" + _REMAINDER_SIGN + r"\s*\d+\s*", re.IGNORECASE
)
_WITH_REMAINDER = re.compile(
    r"(?<![\w.])"
    + _NUMBER
    + r"\s*(?:÷|\\div(?![A-Za-z])|/)\s*"
    + _NUMBER
    + r"\s*=\s*"
    + r"(\d+)\s*,?\s*"
    + _REMAINDER_SIGN
    + r"\s*(\d+)(?![\d.])",
    re.IGNORECASE,
)


def states_remainder(side: str) -> bool:
    """`13 R 4`, `13 \\text{ remainder } 4`, `3……1`: a quotient and a remainder, not a number."""
    return _QUOTIENT_AND_REMAINDER.fullmatch(side) is not None


def is_bracketed(side: str) -> bool:
    """`[x]` or `\\left[ x \\right]` and nothing else: perhaps the integer part of x."""
    return _BRACKETED.fullmatch(side) is not None


def has_division(text: str) -> bool:
    """Whether `text` divides (÷, \\div, /, \\frac): only a quotient is rounded to whole items."""
    return _DIVISION.search(text) is not None


def is_whole_count(exact: Value, shown: Value, round_up: bool) -> bool:
    """`shown` is the whole number of items `exact` (a quotient that is not whole) makes: rounded
    down, or rounded up when what is counted is what is needed."""
    if not isinstance(shown, Fraction) or shown.denominator != 1:
        return False
    if isinstance(exact, Fraction) and exact.denominator == 1:
        return False
    try:
        down = math.floor(exact)
    except (OverflowError, ValueError):
        return False
    return shown == down or (round_up and shown == down + 1)


def quotient_remainder(text: str) -> list[tuple[str, str, str, str, str]]:
    """Every "a ÷ b = q R r" in `text`, as (a, b, q, r, source)."""
    return [
        (m.group(1), m.group(2), m.group(3), m.group(4), m.group().strip())
        for m in _WITH_REMAINDER.finditer(text)
    ]
