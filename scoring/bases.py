"""Numerals in a stated base (issue 11, item 5).

"3 = 0011" in a step about binary, or "110 = 6" after "in base 2", is a correct conversion, not
the false decimal equation it looks like. A base is stated by a subscript after a numeral
(`101_2`, `(101)_{2}`), by name ("base 5", "binary", "octal", "hexadecimal", "二进制", "五进制") or
by a prefix (`0b101`, `0o17`, `0x1F`, read by the parser). Subscripts and prefixes fix the base of
their own numeral; a base named in words only says that numerals *may* be in that base. So a
relation that is false read in decimal is read once more with every numeral made only of that
base's digits taken in that base (exponents stay decimal: `2^{10}` is a power in any base); if
that reading holds, the relation is a conversion the writer got right. A false conversion
("3 = 0111" in binary) is false in both readings and stays false.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scoring.lexicon import BASE_WORDS, words

MAX_BASES = 3

_CJK_NUMERALS = {"二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
                 "十六": 16}
_NAMED = {"binary": 2, "octal": 8, "hexadecimal": 16}
_STATED = re.compile(
    r"\bbase[-\s]*(\d{1,2})\b|(\d{1,2})\s*进制|(十六|[二三四五六七八九])进制"
    r"|\b(binary|octal|hexadecimal)\b|(?<=[\d)])_\{?\(?(\d{1,2})\)?\}?",
    re.IGNORECASE,
)
# A numeral with a base subscript (`1556_7`, `(101)_{2}`): digits, not a decimal value.
IN_BASE = re.compile(r"(?<![\d.])(\d+)_\{?\(?(?!10\b)\d+")
# An integer literal that is neither an exponent, an index nor part of a decimal or a name.
_NUMERAL = re.compile(r"(?<![\w.^{_])\d{2,}(?![\w.]|\s*_)")
_PREFIXED = re.compile(r"(?<![\w.])0(?:([bB])([01]+)|([oO])([0-7]+)|([xX])([0-9a-fA-F]+))\b")
_SUBSCRIPT = re.compile(r"\((\d+)\)\s*_|(?<=\d)_\{?\((\d{1,2})\)\}?")


@lru_cache(maxsize=4096)
def stated_bases(text: str) -> tuple[int, ...]:
    """The bases other than 10 that `text` names, in order of appearance (at most MAX_BASES)."""
    if not words(BASE_WORDS).search(text) and "_" not in text:
        return ()
    found: list[int] = []
    for m in _STATED.finditer(text):
        digits, cjk_digits, cjk, name, subscript = m.groups()
        base = (int(digits or cjk_digits or subscript) if (digits or cjk_digits or subscript)
                else _CJK_NUMERALS[cjk] if cjk else _NAMED[name.lower()])
        if 2 <= base <= 36 and base != 10 and base not in found:
            found.append(base)
    return tuple(found[:MAX_BASES])


def read_in_base(text: str, base: int) -> str | None:
    """`text` with each numeral made only of base-`base` digits replaced by its value, or None
    when no numeral changes (single digits mean the same in every base they are digits of)."""
    changed = False

    def convert(m: re.Match[str]) -> str:
        nonlocal changed
        digits = m.group()
        if base > 10 or any(int(d) >= base for d in digits):
            return digits
        changed = True
        return str(int(digits, base))

    out = _NUMERAL.sub(convert, text)
    return out if changed else None


def with_prefixed_numerals(text: str) -> str:
    """`0b101` -> `5`, `0o17` -> `15`, `0x1F` -> `31`: a prefix fixes its numeral's base."""

    def value(m: re.Match[str]) -> str:
        digits = m.group(2) or m.group(4) or m.group(6)
        base = {"b": 2, "o": 8, "x": 16}[(m.group(1) or m.group(3) or m.group(5)).lower()]
        return str(int(digits, base))

    return _PREFIXED.sub(value, text)


def with_plain_subscripts(text: str) -> str:
    """`(101)_2` and `101_{(2)}` -> `101_2`, the form the parser reads as a base subscript."""
    return _SUBSCRIPT.sub(lambda m: f"{m.group(1)}_" if m.group(1) else f"_{{{m.group(2)}}}", text)
