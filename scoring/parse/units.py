"""Numbers with units read as quantities.

`12 cm`, `3 元`, `5\\text{ kg}`, `60°` are quantities: the unit is no part of the arithmetic (the
parser drops it, `scoring.parse.mathparse.preclean`), but it says which kind of number a side is. A
relation whose sides are in different units is a unit conversion (`1 加仑 = 3.785 升`,
`2 hours = 120 minutes`), true or false only with a conversion table we do not have, so it is
not compared as plain numbers.
"""

from __future__ import annotations

import re

from scoring.parse.lexicon import (
    CJK,
    CJK_UNIT,
    CONNECTIVE,
    DECIMAL,
    DEGREE_MARK,
    GROUPED,
    PI,
    SHORT_UNITS,
    TEXT_COMMAND,
    UNIT_WORDS,
)

_POWER = r"(?:\^\{?[23]\}?)?"
_NOT_CONNECTIVE = r"(?!(?:" + CONNECTIVE + r")\s*\})"
_LATIN = "|".join(sorted(UNIT_WORDS, key=len, reverse=True))
# A rate: `m/s`, `km/h`, `dollars/hour` (single letters count only inside a rate).
_RATE_PART = "|".join(sorted(UNIT_WORDS | SHORT_UNITS, key=len, reverse=True))
_RATE = r"(?:" + _RATE_PART + r")\s*/\s*(?:" + _RATE_PART + r")(?![A-Za-z])"
UNIT_AFTER_NUMBER = re.compile(
    r"(?<=[\d)}])\s*(?:"
    + TEXT_COMMAND
    + r"\s*\{\s*"
    + _NOT_CONNECTIVE
    + r"(?:[A-Za-z]+|"
    + CJK_UNIT
    + r")\s*"
    + _POWER
    + r"\s*\}(?:\s*"
    + _POWER
    + r")?"
    + r"|\(\s*(?:"
    + CJK_UNIT
    + r")\s*\)"
    + r"|(?:"
    + CJK_UNIT
    + r")(?!["
    + CJK
    + r"])"
    + r"|"
    + _RATE
    + r"|(?:"
    + _LATIN
    + r")"
    + _POWER
    + r"(?![A-Za-z])"
    + r")"
)
_DEGREES = re.compile(r"(?<=[\d)}])\s*" + DEGREE_MARK)
_NUMBER = re.compile(r"(?<![\d.])" + DECIMAL + r"(?![\d.])")
_LAST_NUMBER = re.compile(r"(?<![\d.])(" + DECIMAL + r")\s*\)?\s*$")
_BARE_NUMBER = re.compile(r"\s*-?\s*(?:" + GROUPED + "|" + DECIMAL + r")\s*")
_PI = re.compile(PI)


def units_of(text: str) -> frozenset[str]:
    """Units written after numbers (`cm^2` counts as `cm`, `60°` as `degree`)."""
    found = set()
    for m in UNIT_AFTER_NUMBER.finditer(text):
        word = re.sub(r"\\\w+|[^A-Za-z" + CJK + r"]", "", m.group()).lower()
        found.add(word.removesuffix("s") if len(word) > 3 else word)
    if _DEGREES.search(text):
        found.add("degree")
    return frozenset(found)


def _quantities(side: str) -> set[str]:
    """The numbers that carry a unit (`5000` in `5000 立方米`)."""
    found = set()
    for pattern in (UNIT_AFTER_NUMBER, _DEGREES):
        for m in pattern.finditer(side):
            if (number := _LAST_NUMBER.search(side, 0, m.start())) is not None:
                found.add(number.group(1))
    return found


def is_conversion(lhs: str, rhs: str) -> bool:
    """The relation converts between units rather than computing within one.

    Sides in different units are a conversion. When only one side shows units, it is one when
    the other side restates a quantity of the unit side in another unit (`5000 立方米 = 5000
    \\times 1000`: litres; `3.785 升 = 3.785 \\times 10^{-3}`: cubic metres), when it equates a bare
    quantity with a bare number (`2 hours = 120`), or when degrees meet π (radians). A
    computation whose result is written with its unit (`3 \\times 4 = 12 元`) is compared as
    numbers.
    """
    left, right = units_of(lhs), units_of(rhs)
    if left and right:
        return left != right
    if not left and not right:
        return False
    side, other, units = (lhs, rhs, left) if left else (rhs, lhs, right)
    if "degree" in units and _PI.search(other):
        return True
    if _BARE_NUMBER.fullmatch(other) and _BARE_NUMBER.fullmatch(without_units(side)):
        return True  # `2 hours = 120`: a quantity restated as a number in a unit left unsaid
    restated = {m.group() for m in _NUMBER.finditer(other)}
    return bool((_quantities(side) - {"0", "1"}) & restated)


def without_units(side: str) -> str:
    """The side with the units after its numbers dropped (`3.3 平方米` -> `3.3`).

    Only the lexicon's units count (`UNIT_WORDS`, `CJK_UNITS`): in a step, a word after a number
    may be anything. A final answer's unit is dropped by `scoring.answer.readings.numbers.without_unit`.
    """
    return _DEGREES.sub("", UNIT_AFTER_NUMBER.sub("", side))
