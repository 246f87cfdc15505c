"""Amounts of time and money written in units, read in one unit.

Graders accept an amount in any unit of its kind: `75 cents` for `$0.75`, `1小时45分钟` for
`1小时45分` or `105分钟`, `2 hours` for `120 minutes`. An amount here is a run of numbers, each
with a unit of one table (`1 hour 45 minutes`, `3元5角`, `$1.25`); two amounts of the same kind
are compared in its smallest unit. `分` is a minute beside hours and a cent (fen) beside `元` or
`角`. Decided only when both sides are amounts with units of one kind: a bare number against an
amount is the unit-dropping rule's (`numbers.compare_quantities`), and two kinds (a length and a
time) are no amount of either.
"""

from __future__ import annotations

import re
from fractions import Fraction

from scoring.answer.clean import bare, too_long
from scoring.parse.lexicon import AMOUNT_UNITS, CENTS_OF, SECONDS_OF

_PART = re.compile(
    r"\s*(\$|\\\$)?\s*(\d+(?:\.\d+)?)\s*(" + AMOUNT_UNITS + r")?(?![A-Za-z])\s*(?:and\s+)?",
    re.IGNORECASE,
)


def _parts(text: str) -> list[tuple[Fraction, str]] | None:
    """The (number, unit) runs of an amount, or None when `text` is anything else."""
    if too_long(text):
        return None
    written = bare(text).replace(",", "").strip().rstrip("。.")
    parts: list[tuple[Fraction, str]] = []
    pos = 0
    while pos < len(written):
        m = _PART.match(written, pos)
        if m is None or m.end() == pos:
            return None
        sign, number, unit = m.groups()
        if sign and unit:
            return None
        if not sign and not unit:
            return None  # a bare number in the run: not an amount in units
        parts.append((Fraction(number), "dollar" if sign else unit.lower()))
        pos = m.end()
    return parts or None


def amount(text: str) -> tuple[str, Fraction] | None:
    """("time", seconds) or ("money", cents) of an amount written in units; None for anything
    else (a bare number, a unit of no table, two kinds)."""
    return _total(_parts(text))


def _total(parts: list[tuple[Fraction, str]] | None) -> tuple[str, Fraction] | None:
    if parts is None:
        return None
    money = any(u in CENTS_OF for _, u in parts)
    time = any(u in SECONDS_OF for _, u in parts)
    if money == time:  # neither (only 分), or both
        return None
    table = CENTS_OF if money else SECONDS_OF
    fen = 1 if money else 60
    total = Fraction(0)
    for number, unit in parts:
        total += number * (table[unit] if unit != "分" else fen)
    return ("money" if money else "time"), total


def compare_amounts(gold: str, pred: str) -> bool | None:
    """Two amounts of one kind, equal when they are in its smallest unit (module docstring); one
    number in the same unit on both sides is the plain-number reading's."""
    g_parts, p_parts = _parts(gold), _parts(pred)
    if g_parts and p_parts and len(g_parts) == len(p_parts) == 1 and g_parts[0][1] == p_parts[0][1]:
        return None
    g, p = _total(g_parts), _total(p_parts)
    if g is None or p is None or g[0] != p[0]:
        return None
    return g[1] == p[1]
