"""Whether two answers are plainly different numbers, which no one's word can make equal.

ReAlign's dual-mode verdict counts an answer correct when the symbolic check OR a model judge
says so; a model's wrong "same" then turns 285 against a reference of 315 into a correct
answer. Where both sides read as plain numbers (integers, decimals, fractions, with thousands
separators, a sign, a trailing unit word or currency sign), the comparison is decided and a
model's verdict cannot overrule it.
"""

from __future__ import annotations

import re
from fractions import Fraction

_WRAP = re.compile(r"^\s*(?:\\boxed\{(.*)\}|\$(.*)\$|\\\((.*)\\\))\s*$", re.DOTALL)
_PLAIN = re.compile(
    r"^\s*[$¥€£]?\s*([+-]?)\s*[$¥€£]?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*/\s*(\d+))?"
    r"\s*(?:[A-Za-z\u4e00-\u9fff]{0,12}\.?)\s*$"
)
_FRAC = re.compile(r"^\s*([+-]?)\s*\\[dt]?frac\{(\d+)\}\{(\d+)\}\s*$")


def _unwrap(text: str) -> str:
    while (m := _WRAP.match(text)) is not None:
        text = next(g for g in m.groups() if g is not None)
    return text.replace("\\!", "").replace("{,}", ",")


def plain_number(text: str) -> Fraction | None:
    """The value of an answer written as a plain number, else None (an expression, a set...)."""
    text = _unwrap(text)
    if (m := _FRAC.match(text)) is not None:
        sign, num, den = m.groups()
        return None if int(den) == 0 else Fraction(int(num), int(den)) * (-1 if sign == "-" else 1)
    if (m := _PLAIN.match(text)) is None:
        return None
    sign, whole, decimals, den = m.groups()
    value = Fraction(whole.replace(",", "") + (decimals or ""))
    if den is not None:
        if int(den) == 0:
            return None
        value /= int(den)
    return -value if sign == "-" else value


def plainly_differ(answer: str | None, references: tuple[str, ...]) -> bool:
    """True when the answer and every reference are plain numbers and none is equal."""
    if not answer or not references:
        return False
    mine = plain_number(answer)
    if mine is None:
        return False
    theirs = [plain_number(r) for r in references]
    return all(t is not None and t != mine for t in theirs)
