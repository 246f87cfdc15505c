"""Numbers computed with rounded quantities: equal within a relative tolerance, and only then.

The second rule of the tolerance policy (`scoring.parse.tolerance`): when a computation runs
through an inexact quantity (a conversion factor or constant written to a few decimals, a stated
approximation or rounding), numbers that agree to `ROUNDED_REL_TOL` are equal (Qwen2.5-Math's
`numeric_equal`, `math.isclose(reference, prediction, rel_tol=1e-4)`, applies it to every
number); here it applies only when the problem or the solution shows an inexact quantity
(`computed_inexactly`), so exact counts stay exact.

What shows an inexact quantity:
- an approximation mark or word (≈, \\approx, "approximately", "rounded", "to the nearest",
  "decimal places", 约 before a number, 大约, 近似, 四舍五入, 精确到, 保留 ... 位);
- a conversion factor written as a decimal of at least `FACTOR_DIGITS` significant digits
  (`1 公吨 = 2204.62262 磅`, `1 mile = 1.609 km`): such a factor is a rounded one, and so is a
  reference computed with another rounding of it.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from scoring.answer.clean import too_long
from scoring.answer.readings.numbers import Quantity, numeric_value
from scoring.answer.readings.parts import read_parts
from scoring.parse.lexicon import INEXACT_WORDS, words
from scoring.parse.tolerance import (
    APPROXIMATE_REL_TOL,
    FACTOR_DIGITS,
    ROUNDED_REL_TOL,
    STATED_PLACE_UNITS,
)

_APPROXIMATION = words(INEXACT_WORDS)
# `1 unit = 2204.62262 unit`: a unit stated as a decimal multiple of another
_FACTOR = re.compile(
    r"(?<![\d.])1\s{0,3}(?:\\text\{\s{0,3})?[^\W\d_]{1,12}\s{0,3}\}?\s{0,3}(?:=|≈|\\approx)\s{0,3}"
    r"(?P<value>\d{1,12}\.\d{1,12}|\d{1,3}(?:,\d{3}){1,4}\.\d{1,12})"
)
_PLACE_WORDS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "一": 1,
    "两": 2,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
}
_NEAREST = {
    "whole number": 0,
    "integer": 0,
    "unit": 0,
    "tenth": 1,
    "hundredth": 2,
    "thousandth": 3,
    "ten thousandth": 4,
    "个位": 0,
    "整数": 0,
    "十分位": 1,
    "百分位": 2,
    "千分位": 3,
    "万分位": 4,
}
_COUNT = r"(\d|one|two|three|four|five|six|一|两|二|三|四|五|六)"
_STATED_PLACES = re.compile(
    r"\b" + _COUNT + r"\s*(?:-\s*)?decimal(?:\s+places?|\s+digits?|s)\b"
    r"|\b(?:to|at) the nearest\s+(whole number|integer|unit|tenth|hundredth|thousandth"
    r"|ten[- ]thousandth)s?\b"
    r"|\bnearest\s+(0\.0{0,5}1)\b|\b" + _COUNT + r"\s*d\.\s?p\.?"
    r"|保留\s*" + _COUNT + r"\s*位\s*小数|精确到\s*(0\.0{0,5}1)(?![\d])"
    r"|(?:精确到|保留到|保留至)\s*(个位|整数|十分位|百分位|千分位|万分位)",
    re.IGNORECASE,
)
# a whole solution is searched (bounded quantifiers keep it linear); past this it is not read
MAX_TEXT_CHARS = 200_000


def _significant(decimal: str) -> int:
    return len(decimal.replace(",", "").replace(".", "").lstrip("0"))


def computed_inexactly(*texts: str) -> bool:
    """Whether any text (the problem, the solution) shows an inexact quantity (module docstring)."""
    for text in texts:
        if not text or len(text) > MAX_TEXT_CHARS:
            continue
        if _APPROXIMATION.search(text):
            return True
        if any(_significant(m.group("value")) >= FACTOR_DIGITS for m in _FACTOR.finditer(text)):
            return True
    return False


def _number(text: str) -> float | None:
    value = numeric_value(text)
    if isinstance(value, Quantity):
        if value.percent:
            return None  # a percent has two readings; the exact readings handle those
        value = value.value
    if value is None:
        return None
    return float(value) if isinstance(value, Fraction) else value


def _numbers(text: str) -> tuple[str, list[float]] | None:
    """The brackets and the numbers an answer states, in order: one number (no brackets), or
    each part of a list, tuple, interval or set; None when any part is not a number."""
    parts = read_parts(text)
    if parts is None:
        one = _number(text)
        return None if one is None else ("", [one])
    values = [_number(p) for p in parts.values]
    if any(v is None for v in values):
        return None
    return parts.brackets, values  # type: ignore[return-value]


def within_rounding(gold: str, pred: str) -> bool | None:
    """True when both answers state the same count of numbers in the same brackets (an interval
    is not a tuple) and each pair agrees to `ROUNDED_REL_TOL`, in order; None otherwise: this reading
    only ever equates, never refuses."""
    if too_long(gold, pred):
        return None
    g, p = _numbers(gold), _numbers(pred)
    if not g or not p or g[0] != p[0] or not g[1] or len(g[1]) != len(p[1]):
        return None
    close = all(
        math.isfinite(a) and math.isfinite(b) and math.isclose(a, b, rel_tol=ROUNDED_REL_TOL)
        for a, b in zip(g[1], p[1], strict=True)
    )
    return True if close else None


def stated_places(problem: str) -> int | None:
    """The decimal places a problem asks its answer to be given to ("to two decimal places",
    "nearest hundredth", "保留两位小数", "精确到0.01", "精确到百分位"; 0 for a whole number), or
    None when it states none, or states more than one."""
    if not problem or len(problem) > MAX_TEXT_CHARS:
        return None
    found = set()
    for m in _STATED_PLACES.finditer(problem):
        count, nearest, unit_word, dp, cn_count, cn_unit, cn_place = m.groups()
        word = (count or dp or cn_count or "").lower()
        if word:
            found.add(int(word) if word.isdigit() else _PLACE_WORDS[word])
        elif nearest or cn_place:
            found.add(_NEAREST[(nearest or cn_place).lower().replace("-", " ")])
        else:
            found.add(len((unit_word or cn_unit).split(".")[1]))
    return found.pop() if len(found) == 1 else None


def within_stated_precision(gold: str, pred: str, places: int) -> bool | None:
    """True when the problem asks for `places` decimals and each number of the prediction lies
    within `STATED_PLACE_UNITS` units of that place of the reference's, in order and in the same
    brackets; None otherwise: this reading only ever equates.

    The general rule: the reference is the correctly rounded value, and a solver who carried
    rounded intermediate values lands a unit off in the last asked place (5.79 for 5.78 at two
    decimals), which human graders accept. The slack applies only to decimal places (a whole
    number asked for is a count as often as a rounding: 139 is another answer than 138), and only
    where a unit of that place is within `APPROXIMATE_REL_TOL` of the reference (a rounding, not
    a different answer: 0.06 is not 0.05 at two decimals).
    """
    if too_long(gold, pred) or not 1 <= places <= 12:
        return None
    g, p = _numbers(gold), _numbers(pred)
    if not g or not p or g[0] != p[0] or not g[1] or len(g[1]) != len(p[1]):
        return None
    unit = 10.0**-places
    for a, b in zip(g[1], p[1], strict=True):
        if not (math.isfinite(a) and math.isfinite(b)) or unit > APPROXIMATE_REL_TOL * abs(a):
            return None
        if abs(a - b) > STATED_PLACE_UNITS * unit * (1 + 1e-9):
            return None
    return True
