"""Numerals written in another base, fractional digits included: `10.1_2` is 2.5.

A numeral with a base subscript (`10.1_2`, `(10.1)_2`, `10.1_{(2)}`, `2A.8_{16}`) stands for its
value: each digit weighs a power of the base, those after the point negative powers (the general
positional rule; `0.11_2` is 3/4). An answer so written equals a number of the same value written
in decimal or in any base, and differs from one of another value. A digit not valid in its base
(`12_2`) is not a numeral, nor is a letter alone outside hexadecimal (`A_{12}` is an indexed
name); the pair is then left to the other readings.
"""

from __future__ import annotations

import re
from fractions import Fraction

from scoring.answer.clean import bare, too_long
from scoring.answer.readings.numbers import Value, numeric_value, values_equal
from scoring.parse.bases import positional_value
from scoring.parse.lexicon import DIGIT

_BASE_NUMERAL = re.compile(
    r"^(?P<sign>[-−])?\s*\(?\s*(?P<int>[0-9A-Z]*)(?:\.(?P<frac>[0-9A-Z]+))?\s*\)?"
    r"\s*_\s*\{?\s*\(?\s*(?P<base>\d{1,2})\s*\)?\s*\}?$"
)
MAX_DIGITS = 64


def base_value(text: str) -> Fraction | None:
    """The value of an answer that is one numeral with a base subscript other than 10, or None."""
    if too_long(text):
        return None
    m = _BASE_NUMERAL.match(bare(text))
    if m is None or not (m.group("int") or m.group("frac")):
        return None
    base = int(m.group("base"))
    whole, frac = m.group("int"), m.group("frac") or ""
    if not 2 <= base <= 36 or base == 10 or len(whole) + len(frac) > MAX_DIGITS:
        return None
    if base != 16 and not DIGIT.search(whole + frac):
        return None  # `A_{12}` is a name with an index, unless hexadecimal says otherwise
    value = positional_value(whole, frac, base)
    if value is None:
        return None
    return Fraction(-value if m.group("sign") else value)


def compare_base_numbers(gold: str, pred: str) -> bool | None:
    """Equal when both state the same number, one (or both) written in another base; None
    unless one side is a base numeral and the other a number read exactly."""
    g_base, p_base = base_value(gold), base_value(pred)
    if g_base is None and p_base is None:
        return None
    g: Value | None = g_base if g_base is not None else numeric_value(gold)
    p: Value | None = p_base if p_base is not None else numeric_value(pred)
    if g is None or p is None:
        return None
    return values_equal(g, p)
