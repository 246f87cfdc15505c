"""Answers that are one number, read in code: exact, fast, and with the graders' documented rules.

A plain quantity is an optional currency sign, a number (integer, decimal, fraction, mixed number,
scientific notation, thousands separators, a decimal comma), an optional percent sign and an
optional unit. Two quantities are compared here without math-verify:

- units and currencies are not part of the value (`$2.00` is 2, `5 cm` is 5; MARIO, simple-evals);
- a percent is read either way, 39.06% as 0.3906 or as 39.06 with the sign dropped (NeMo-Skills,
  MARIO), but a number without a percent sign is never rescaled, so 50 is not 0.5;
- a decimal written to k places stands for any value that rounds or truncates to it there, when
  it carries at least `MIN_SIGNIFICANT` significant digits: a reference 9.03 accepts 9.0312, and
  0.3333 approximates 1/3; 0.5 or 0.33 state no precision and must match exactly (the first rule
  of the tolerance policy, `scoring.parse.tolerance`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

from scoring.answer.clean import bare, too_long
from scoring.parse.enumeration import enumerated_parts
from scoring.parse.lexicon import (
    CJK,
    CURRENCY_CODES,
    CURRENCY_SIGNS,
    DEGREE_MARK,
    DIGIT,
    SHORT_UNITS,
    latex,
    relations,
)
from scoring.parse.mathparse import parse_math
from scoring.parse.numeric import Unevaluable, evaluate
from scoring.parse.tolerance import COMPUTED_REL_TOL, MIN_SIGNIFICANT

MAX_DIGITS = 40

_CURRENCY = (
    r"(?:\\\$|"
    + "|".join(re.escape(c) for c in CURRENCY_CODES)
    + "|["
    + re.escape(CURRENCY_SIGNS)
    + "])"
)
_NUMBER = (
    r"(?P<sign>[-+−])?\s*(?:"
    r"(?P<mixed>\d+)\s*(?:"
    + latex.fraction(r"(?P<mn>\d+)", r"(?P<md>\d+)", r"\\frac")
    + r"|\\frac(?P<mn1>\d)(?P<md1>\d)"
    r"|\s(?P<mn2>\d+)/(?P<md2>\d+))|"
    + latex.fraction(r"\s*(?P<fn>[-+]?[\d.]+)\s*", r"\s*(?P<fd>[\d.]+)\s*", r"\\frac")
    + r"|\\frac(?P<fn1>\d)(?P<fd1>\d)"
    r"|(?P<thou>[1-9]\d{0,2}(?:(?:,|\{,\}| )\d{3})+(?:\.\d+)?(?![\d,]))"
    r"|(?P<num>\d+(?:[.,]\d+)?|\.\d+)"
    r"(?:\s*/\s*(?P<den>\d+))?"
    r"(?:\s*(?:\\times|\\cdot|×|\*)\s*10\s*\^\s*\{?\s*(?P<exp>[-+−]?\d+)\s*\}?|[eE](?P<exp2>[-+]?\d+))?"
    r")"
)
_PERCENT = r"(?:\\%|%|\s*percent(?:age)?|\s*pct)"
_UNIT_WORD = r"(?:[A-Za-z]{2,}|[A-Za-z](?![A-Za-z]))(?:\s*(?:\^\s*\{?\s*[23]\s*\}?|[²³]))?"
_WORDS_UNIT = (
    r"(?:\s*(?:" + _UNIT_WORD + r"(?:\s*/\s*" + _UNIT_WORD + r")?(?:\s+" + _UNIT_WORD + r"){0,2}"
    r"|[" + CJK + r"]{1,4}))"
)
# `-7^\circ\text{C}`, `20°C`, `68 ℉`: a temperature, whose degree sign is no angle's
_TEMPERATURE = (
    r"(?:" + DEGREE_MARK + r"\s*(?:\\(?:text|mathrm)\s*\{\s*(?P<scale>[CF])\s*\}"
    r"|\{?\s*(?P<scale1>[CF])\s*\}?(?![A-Za-z]))|(?P<sign_scale>[℃℉]))"
)
_UNIT = (
    r"(?:" + _TEMPERATURE + "|" + _WORDS_UNIT + r"|\s*(?:" + DEGREE_MARK + "|" + _CURRENCY + r"))"
)
_QUANTITY = re.compile(
    r"^(?P<cur>" + _CURRENCY + r")?\s*" + _NUMBER + r"\s*(?P<pct>" + _PERCENT + r")?"
    r"(?P<unit>" + _UNIT + r")?$"
)
_TRAILING_UNIT = re.compile(r"^(?P<value>[^$]*?[\d})\]])(?P<unit>" + _WORDS_UNIT + r")$")
# words that follow a number without being its unit (`2 and 3`, `3 times`, `5 x`)
_NOT_UNITS = frozenset(
    [
        "and",
        "or",
        "not",
        "no",
        "yes",
        "is",
        "are",
        "was",
        "be",
        "of",
        "to",
        "the",
        "a",
        "an",
        "in",
        "on",
        "at",
        "by",
        "for",
        "from",
        "with",
        "than",
        "then",
        "so",
        "as",
        "if",
        "it",
        "its",
        "this",
        "that",
        "which",
        "where",
        "when",
        "times",
        "plus",
        "minus",
        "over",
        "pi",
        "e",
        "i",
        "x",
        "y",
        "z",
        "n",
        "k",
    ]
)
_CLOSED = re.compile(r"\d|\\pi")
_RELATION = relations.relation_pattern(relations.AFTER_VALUE)


@dataclass(frozen=True)
class Quantity:
    """A number as written: its value, the decimal places it states, percent sign and unit."""

    value: Fraction
    decimals: int | None  # places written after the point; None when written exactly
    significant: int
    percent: bool = False
    unit: str = ""


def _digits(text: str) -> tuple[Fraction, int | None, int]:
    """Value, stated decimal places and significant digits of `123.4500` style text."""
    if len(text) > MAX_DIGITS:
        raise ValueError("too many digits")
    value = Fraction(Decimal(text))
    if "." not in text:
        return value, None, len(text.lstrip("0")) or 1
    whole, frac = text.split(".")
    significant = len((whole + frac).lstrip("0")) or 1
    return value, len(frac), significant


def without_unit(text: str) -> str:
    """`8\\sqrt{3} \\text{ square inches}` -> `8\\sqrt{3}`: a unit after any value is not part of it.

    The text is returned unchanged when what follows the value is not a unit (`2 and 3`). Not
    `scoring.parse.units.without_units`, on purpose: a step has numbers all through it, and a
    word after one of them is a unit only when it is in the closed lists of the lexicon; an
    answer is one value, and any word after it (`12 apples`) is its unit unless it is a word that
    continues the answer (`_NOT_UNITS`).
    """
    if too_long(text):
        return text
    written = bare(text)
    m = _TRAILING_UNIT.match(written)
    if m is None or not DIGIT.search(m.group("value")):
        return text
    glued = not (m.group("unit")[:1].isspace() or written[m.start("unit") - 1].isspace())
    return m.group("value").strip() if _unit(m.group("unit"), glued) else text


def _unit(raw: str | None, glued: bool) -> str | None:
    """The unit's normal form ('' for none), or None when the trailing text is not a unit."""
    if not raw or not raw.strip():
        return ""
    words = re.findall(r"[A-Za-z]+", raw)
    if any(w.lower() in _NOT_UNITS for w in words):
        return None
    if re.fullmatch(r"\s*" + _CURRENCY + r"\s*", raw):
        return "currency"
    if words and glued and len(words[0]) < 3 and raw.strip()[:1].isalpha():
        return None  # `10m`, `5x`: a product with a letter, not a unit
    if len(words) == 1 and len(words[0]) == 1 and words[0] not in SHORT_UNITS:
        return None
    text = re.sub(r"[\s{}]", "", raw).lower()
    return text[:-1] if len(text) > 3 and text.endswith("s") else text


@lru_cache(maxsize=8192)
def read_quantity(text: str, decimal_comma: bool = False) -> Quantity | None:
    """The plain quantity `text` states, or None when it is anything more than one.

    With `decimal_comma`, `1,22` and `0,111` read as decimals (the comma of most of Europe);
    otherwise a comma only separates thousands, in groups of three.
    """
    if too_long(text):
        return None
    written = bare(text)
    m = _QUANTITY.match(written)
    if m is None or not any(m.group(k) for k in ("mixed", "fn", "fn1", "thou", "num")):
        return None
    start = m.start("unit")
    scale = (
        m.group("scale")
        or m.group("scale1")
        or {"℃": "C", "℉": "F"}.get(m.group("sign_scale") or "")
    )
    unit = (
        f"°{scale}"
        if scale
        else _unit(m.group("unit"), start > 0 and not written[start - 1].isspace())
    )
    if unit is None:
        return None
    if m.group("cur"):
        unit = unit or "currency"
    try:
        value, decimals, significant = _value(m, decimal_comma)
    except (ValueError, ZeroDivisionError, InvalidOperation):
        return None
    if m.group("sign") in ("-", "−"):
        value = -value
    return Quantity(value, decimals, significant, bool(m.group("pct")), unit)


def _value(m: re.Match[str], decimal_comma: bool) -> tuple[Fraction, int | None, int]:
    if m.group("mixed"):
        num = m.group("mn") or m.group("mn1") or m.group("mn2")
        den = m.group("md") or m.group("md1") or m.group("md2")
        if int(num) >= int(den):
            raise ValueError("not a proper fraction")
        return int(m.group("mixed")) + Fraction(int(num), int(den)), None, 0
    if m.group("fn") or m.group("fn1"):
        num = m.group("fn") or m.group("fn1")
        den = m.group("fd") or m.group("fd1")
        return Fraction(Decimal(num)) / Fraction(Decimal(den)), None, 0
    if m.group("thou"):
        return _digits(re.sub(r"\{,\}|[ ,]", "", m.group("thou")))
    text = m.group("num")
    if "," in text:
        whole, frac = text.split(",")
        if not decimal_comma or not (len(frac) == 2 or len(frac) > 3 or whole == "0"):
            raise ValueError("a comma that is not a decimal comma")
        text = f"{whole}.{frac}"
    value, decimals, significant = _digits(text)
    if m.group("den"):
        return value / int(m.group("den")), None, 0
    exp = m.group("exp") or m.group("exp2")
    if exp:
        shift = int(exp.replace("−", "-"))
        value *= Fraction(10) ** shift
        decimals = max(0, (decimals or 0) - shift)
    return value, decimals, significant


def _fits(
    exact: Fraction | float, stated: Fraction, decimals: int | None, significant: int
) -> bool:
    """Whether `stated`, written to `decimals` places, is `exact` rounded or truncated there."""
    if exact == stated:
        return True
    if decimals is None or significant < MIN_SIGNIFICANT:
        return False
    quantum = Decimal(1).scaleb(-decimals)
    try:
        exact_dec = (
            Decimal(repr(exact))
            if isinstance(exact, float)
            else (Decimal(exact.numerator) / Decimal(exact.denominator))
        )
        target = Decimal(stated.numerator) / Decimal(stated.denominator)
        return any(
            exact_dec.quantize(quantum, rounding=r) == target.quantize(quantum)
            for r in (ROUND_HALF_UP, ROUND_DOWN)
        )
    except InvalidOperation:
        return False


def _readings(q: Quantity) -> list[tuple[Fraction, int | None]]:
    """The values a quantity may mean: a percent is its hundredth, or the number without the sign."""
    if not q.percent:
        return [(q.value, q.decimals)]
    scaled = None if q.decimals is None else q.decimals + 2
    return [(q.value / 100, scaled), (q.value, q.decimals)]


def quantities_equal(gold: Quantity, pred: Quantity) -> bool:
    """Equal as numbers, by the rules in the module docstring (units are not compared here)."""
    both = gold.percent and pred.percent
    g_readings = [(gold.value, gold.decimals)] if both else _readings(gold)
    p_readings = [(pred.value, pred.decimals)] if both else _readings(pred)
    for g_value, g_decimals in g_readings:
        for p_value, p_decimals in p_readings:
            if _fits(p_value, g_value, g_decimals, gold.significant):
                return True
            if g_decimals is None and _fits(g_value, p_value, p_decimals, pred.significant):
                return True
    return False


def approximates(exact: float | Fraction, pred: Quantity) -> bool:
    """Whether a decimal `pred` is an exact reference value rounded or truncated (see above)."""
    return any(
        _fits(exact, value, decimals, pred.significant) for value, decimals in _readings(pred)
    )


def compare_quantities(gold: str, pred: str) -> bool | None:
    """True/False when both answers are plain quantities; None when either is anything else.

    Units are not part of the value; when both sides state different units, the pair is left to
    the general comparison (None). A decimal comma is read on one side only when the other side
    is a plain quantity without one.
    """
    g, p = read_quantity(gold), read_quantity(pred)
    if g is None and p is not None:
        g = read_quantity(gold, decimal_comma=True)
    elif p is None and g is not None:
        p = read_quantity(pred, decimal_comma=True)
    if g is None or p is None:
        return None
    if g.unit and p.unit and g.unit != p.unit and "currency" not in (g.unit, p.unit):
        return None
    return quantities_equal(g, p)


_DEGREES = re.compile(r"^(?:" + DEGREE_MARK + r"|度)$")


def compare_angle_units(gold: str, pred: str) -> bool | None:
    """An angle in degrees (`30°`, `30^\\circ`, 30度) equals its measure in radians written
    with pi (`\\frac{\\pi}{6}`): graders accept either unit of the same angle. Only True: the
    pair is not read as two angles unless their values agree, so a difference is left to the
    other readings."""
    for degrees, radians in ((gold, pred), (pred, gold)):
        q = read_quantity(degrees)
        if q is None or not _DEGREES.match(q.unit) or "\\pi" not in bare(radians):
            continue
        value = numeric_value(radians)
        if value is None or isinstance(value, Quantity):
            continue
        if math.isclose(float(value), float(q.value) * math.pi / 180, rel_tol=1e-9, abs_tol=1e-12):
            return True
    return None


Value = Quantity | Fraction | float


def numeric_value(text: str) -> Value | None:
    """A plain quantity, else the value of a closed expression (`40\\pi`, `\\sqrt{3}/2`), else None.

    Expressions are read by `scoring.parse.mathparse` (whitelisted, bounded) and evaluated by
    `scoring.parse.numeric` (size-checked), so no answer can make this slow.
    """
    if too_long(text):
        return None
    if (q := read_quantity(text)) is not None:
        return q
    written = bare(text)
    if (
        not _CLOSED.search(written)
        or _RELATION.search(written)
        or "\\boxed" in written
        or enumerated_parts(written) is not None
    ):
        return None  # an enumerated answer is its parts, not their product
    expr = parse_math(written)
    if expr is None or expr.free_symbols:
        return None
    try:
        return evaluate(expr)
    except Unevaluable:
        return None


def values_equal(gold: Value, pred: Value) -> bool:
    """Equal numbers: quantities by `quantities_equal`, an exact value against a decimal by
    rounding, two computed values to twelve significant digits."""
    if isinstance(gold, Quantity) and isinstance(pred, Quantity):
        return quantities_equal(gold, pred)
    if isinstance(pred, Quantity):
        return approximates(gold, pred)  # type: ignore[arg-type]
    if isinstance(gold, Quantity):
        return any(
            _fits(pred, value, decimals, gold.significant) for value, decimals in _readings(gold)
        )
    return gold == pred or math.isclose(gold, pred, rel_tol=COMPUTED_REL_TOL, abs_tol=1e-300)


_CLOCK = re.compile(
    r"^(\d{1,2})(?::([0-5]\d)(?::([0-5]\d))?)?\s*([ap])?\.?\s*(?:m\.?)?$", re.IGNORECASE
)


def clock_seconds(text: str) -> tuple[int, bool] | None:
    """Seconds after midnight of `20:34`, `20:34:00`, `8:34 P.M.` or `2 pm`, and whether the text
    shows seconds or a.m./p.m. (without either, `7:32` may as well be a ratio, and `7` is a
    number)."""
    if too_long(text):
        return None
    m = _CLOCK.match(bare(text).strip())
    if m is None or (m.group(2) is None and not m.group(4)):
        return None
    hours, minutes = int(m.group(1)), int(m.group(2) or 0)
    seconds = int(m.group(3) or 0)
    if half := (m.group(4) or "").lower():
        if not 1 <= hours <= 12:
            return None
        hours = hours % 12 + (12 if half == "p" else 0)
    if hours > 24:
        return None
    return hours * 3600 + minutes * 60 + seconds, bool(m.group(3) or half)


def compare_clock_times(gold: str, pred: str) -> bool | None:
    """Clock times are equal when they name the same moment of the day (MARIO's time rule).

    Decided only when one side is unmistakably a time (seconds, a.m./p.m.); `7:32` alone is left
    to the general comparison, where it may be a ratio.
    """
    g, p = clock_seconds(gold), clock_seconds(pred)
    if g is None or p is None or not (g[1] or p[1]):
        return None
    return g[0] == p[0]
