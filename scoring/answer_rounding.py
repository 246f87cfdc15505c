"""Numbers computed with rounded quantities: equal within a relative tolerance, and only then.

The reading: when a computation runs through an inexact quantity (a conversion factor or constant
written to a few decimals, a stated approximation or rounding), two solvers who rounded that
quantity differently reach different numbers that are the same answer, so numbers that agree to a
relative 1e-4 are equal. The tolerance is Qwen2.5-Math's evaluation
(`evaluation/grader.py`, `numeric_equal`: `math.isclose(reference, prediction, rel_tol=1e-4)`),
which applies it to every number; here it applies only when the problem or the solution shows an
inexact quantity (`computed_inexactly`), so exact counts stay exact: 10000 is not 10001.

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

from scoring.answer_numbers import Quantity, numeric_value
from scoring.answer_parts import read_parts
from scoring.answer_text import too_long

REL_TOL = 1e-4  # Qwen2.5-Math, evaluation/grader.py numeric_equal
FACTOR_DIGITS = 4

_APPROXIMATION = re.compile(
    r"≈|≅|≒|\\approx|\\simeq|\\thickapprox"
    r"|\bapprox(?:\.|imately|imate|imation)?\b|\brounded\b|\bround(?:ing)? (?:it |this |the \w+ )?to\b"
    r"|\bto the nearest\b|\bdecimal places?\b|\bsignificant (?:figures|digits)\b"
    r"|约(?=\s*[\d$\\(（])|大约|约等于|约为|近似|四舍五入|精确到|保留[^。\n]{0,8}?(?:位|小数)",
    re.IGNORECASE,
)
# `1 unit = 2204.62262 unit`: a unit stated as a decimal multiple of another
_FACTOR = re.compile(
    r"(?<![\d.])1\s{0,3}(?:\\text\{\s{0,3})?[^\W\d_]{1,12}\s{0,3}\}?\s{0,3}(?:=|≈|\\approx)\s{0,3}"
    r"(?P<value>\d{1,12}\.\d{1,12}|\d{1,3}(?:,\d{3}){1,4}\.\d{1,12})"
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
    is not a tuple) and each pair agrees to `REL_TOL`, in order; None otherwise: this reading
    only ever equates, never refuses."""
    if too_long(gold, pred):
        return None
    g, p = _numbers(gold), _numbers(pred)
    if not g or not p or g[0] != p[0] or not g[1] or len(g[1]) != len(p[1]):
        return None
    close = all(math.isfinite(a) and math.isfinite(b) and math.isclose(a, b, rel_tol=REL_TOL)
                for a, b in zip(g[1], p[1], strict=True))
    return True if close else None
