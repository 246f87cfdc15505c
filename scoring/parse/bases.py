"""Numerals in a stated base.

"3 = 0011" in a step about binary, or "110 = 6" after "in base 2", is a correct conversion, not
the false decimal equation it looks like. A base is stated by a subscript after a numeral
(`101_2`, `(101)_{2}`), by name ("base 5", "binary", "octal", "hexadecimal", "二进制", "五进制") or
by a prefix (`0b101`, `0o17`, `0x1F`, read by the parser). Subscripts and prefixes fix the base of
their own numeral; a base named in words only says that numerals *may* be in that base, and
there a numeral may also carry its base as a suffix (`1100100(2)`, `144.6(8)`; elsewhere `3(2)`
is a product). So a relation that is false read in decimal is read again with each side in
decimal or in a stated base, every numeral of the side made only of that base's digits taken in
it, fractions included (`0.11` in base 2 is 3/4; exponents stay decimal: `2^{10}` is a power in
any base). If one of those readings holds, the relation is a conversion the writer got right
(`0.11(2) = 0.75`, `.110 = .6` from binary to octal). A false conversion ("3 = 0111" in binary)
is false in every reading and stays false.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache

from scoring.parse.lexicon import BASE_WORDS, words

MAX_BASES = 3

_CJK_NUMERALS = {"二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十六": 16}
_NAMED = {"binary": 2, "octal": 8, "hexadecimal": 16}
_STATED = re.compile(
    r"\bbase[-\s]*(\d{1,2})\b|(\d{1,2})\s*进制|(十六|[二三四五六七八九])进制"
    r"|\b(binary|octal|hexadecimal)\b|(?<=[\d)])_\{?\(?(\d{1,2})\)?\}?",
    re.IGNORECASE,
)
# A base suffix (`1100100(2)`): read as one only where a base is named otherwise.
_SUFFIX = re.compile(r"(?<=[\dA-F])\((\d{1,2})\)")
# A numeral with a base subscript (`1556_7`, `(101)_{2}`): digits, not a decimal value.
IN_BASE = re.compile(r"(?<![\d.])(\d+)_\{?\(?(?!10\b)\d+")
# A numeral (digits, hexadecimal capitals, a point, a `(b)` base suffix) that is neither an
# exponent, an index nor part of a name.
_NUMERAL = re.compile(
    r"(?<![\w.^{_\\])(?=\.?[\dA-F])(?P<int>[\dA-F]*)(?:\.(?P<frac>[\dA-F]+))?"
    r"(?:\((?P<base>\d{1,2})\))?(?![\w.]|\s*_)"
)
_PREFIXED = re.compile(r"(?<![\w.])0(?:([bB])([01]+)|([oO])([0-7]+)|([xX])([0-9a-fA-F]+))\b")
_SUBSCRIPT = re.compile(r"\((\d+)\)\s*_|(?<=\d)_\{?\((\d{1,2})\)\}?")


@lru_cache(maxsize=4096)
def stated_bases(text: str) -> tuple[int, ...]:
    """The bases other than 10 that `text` names, in order of appearance (at most MAX_BASES)."""
    if not words(BASE_WORDS).search(text) and "_" not in text:
        return ()
    found: list[int] = []
    named = _STATED.search(text) is not None
    for m in (*_STATED.finditer(text), *(_SUFFIX.finditer(text) if named else ())):
        digits, cjk_digits, cjk, name, subscript = (
            m.groups() if m.re is _STATED else (m.group(1), None, None, None, None)
        )
        number = digits or cjk_digits or subscript
        base = int(number) if number else _CJK_NUMERALS[cjk] if cjk else _NAMED[str(name).lower()]
        if 2 <= base <= 36 and base != 10 and base not in found:
            found.append(base)
    return tuple(found[:MAX_BASES])


def positional_value(digits: str, fraction: str, base: int) -> Fraction | int | None:
    """The value of the numeral `digits`.`fraction` in `base`: each digit weighs a power of the
    base, those after the point negative powers (`0.11` in base 2 is 3/4); None when a digit
    (0-9, then letters) is not one of the base's."""
    if any(int(d, 36) >= base for d in digits + fraction):
        return None
    whole = int(digits, base) if digits else 0
    return whole + (Fraction(int(fraction, base), base ** len(fraction)) if fraction else 0)


def read_in_base(text: str, base: int, stated: tuple[int, ...] = ()) -> str | None:
    """`text` with each numeral made only of base-`base` digits replaced by its value (one with a
    base suffix in `stated` or 10, by its value in that base), or None when nothing changes."""
    changed = False

    def convert(m: re.Match[str]) -> str:
        nonlocal changed
        digits, fraction, suffix = m.group("int"), m.group("frac") or "", m.group("base")
        numeral_base = int(suffix) if suffix and int(suffix) in (*stated, 10) else base
        if suffix and int(suffix) not in (*stated, 10):
            return m.group()  # `3(2)`: a product, unless base 2 is stated
        value = positional_value(digits, fraction, numeral_base)
        if value is None or (not suffix and value == positional_value(digits, fraction, 10)):
            return m.group()
        changed = True
        return str(value) if value.denominator == 1 else f"({value.numerator}/{value.denominator})"

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
