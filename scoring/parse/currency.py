"""Currency signs: `$1.60` is an amount of money, not the start of a TeX formula.

`$` is both TeX's inline math delimiter and the dollar sign. Read as delimiters, the dollars of
"$1.60 + $0.40 = $2.00" pair into the spans "1.60 + " and "0.40 = " and leave the last one open,
and the step reads as "1.60 = 0.40". The reading: a `$` directly before a digit, after the start
of a line, a space or sentence punctuation, is a candidate currency sign. The candidates are
taken as currency when reading every `$` as a delimiter is inconsistent (an odd number on the
line, or a span that closes right before a digit, as in "$5 and $6") and reading the candidates
as currency leaves the other dollars consistently paired. Otherwise every `$` stays a delimiter:
"$3$ apples and $4$ pears" is math.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scoring.parse.lexicon import CURRENCY_SIGNS

_MAX_DOLLARS = 64  # per line; beyond that every `$` stays a delimiter (bounded work)
_LONE_DOLLAR = re.compile(r"(?<![\\$])\$(?!\$)")
_CANDIDATE_BEFORE = " \t([（,，;；:：、=+\u3000"
_OTHER_SIGN = re.compile("[" + re.escape(CURRENCY_SIGNS.replace("$", "")) + r"]\s*(?=\d)")


def _consistent(dollars: list[int], line: str) -> bool:
    """Delimiters pair up, and no formula closes right before a digit (`$5 and $6`)."""
    if len(dollars) % 2:
        return False
    closers = dollars[1::2]
    return not any(at + 1 < len(line) and line[at + 1].isdigit() for at in closers)


def _line_currency(line: str) -> set[int]:
    if line.count("$") > _MAX_DOLLARS:
        return set()
    dollars = [m.start() for m in _LONE_DOLLAR.finditer(line)]
    candidates = {
        at
        for at in dollars
        if at + 1 < len(line)
        and line[at + 1].isdigit()
        and (at == 0 or line[at - 1] in _CANDIDATE_BEFORE)
    }
    if not candidates or _consistent(dollars, line):
        return set()
    rest = [at for at in dollars if at not in candidates]
    return candidates if _consistent(rest, line) else set()


@lru_cache(maxsize=4096)
def currency_dollars(text: str) -> frozenset[int]:
    """Positions of the `$` signs in `text` that are currency, not math delimiters."""
    if "$" not in text:
        return frozenset()
    found: set[int] = set()
    offset = 0
    for line in text.split("\n"):
        if re.search(r"\$\d", line):
            found.update(offset + at for at in _line_currency(line))
        offset += len(line) + 1
    return frozenset(found)


def without_currency_signs(text: str) -> str:
    """Currency signs before amounts replaced by spaces (positions in the text are kept)."""
    dollars = currency_dollars(text)
    if dollars:
        text = "".join(" " if i in dollars else ch for i, ch in enumerate(text))
    return _OTHER_SIGN.sub(lambda m: " " * len(m.group()), text)
