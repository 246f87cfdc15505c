"""Arithmetic stated in words: "divide 6 into 54 to get 9", "3 times 4 is 12", "$7 \\cdot 3$ is 21",
"25% of 80 is 20", "half of 30 is 15".

ReasonEval's "random number" and "random operation" perturbations (Xia et al. 2024, ReasonEval,
Sec. 4.1) change a number or an operator of a step; when the step states its arithmetic partly in
words, the relation has no `=` and the symbolic check (`scoring.parse.equations`) never sees it. This
module reads the few sentence shapes that state one operation and its result and turns them into
ordinary relations (`54 / 6 = 9`), which `scoring.parse.equations.check_step` decides with the same bounded evaluation and the
same rounding tolerance. Anything less clear (pronouns, numbers written as words, a result that
runs on into more arithmetic: "is 2x", "is 3 times ...") is not read at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from scoring.parse.lexicon import (
    DECIMAL,
    PERCENT_SIGN,
    SIGNED_DECIMAL,
    latex,
    operators,
    relations,
)

MAX_CHARS = 2_000

_NUM = r"\$?\s*\(?\s*(" + SIGNED_DECIMAL + r")\s*\)?\s*\$?"
_RES = r"\$?\s*(" + SIGNED_DECIMAL + r")\s*\$?"
# The result must end the arithmetic: not "is 2x", "is 3 times", "is 4/5", "is 20%".
_RESULT_END = (
    r"(?![A-Za-z_{\d]|\.\d|\s*(?:[-+*/^%×÷(]|\\[A-Za-z%])|\s+[x×]\s*\d"
    r"|\s+(?:times|percent|more|less|plus|minus|over|divided|multiplied|squared|cubed"
    r"|of|per|to\s+\d|out)\b)"
)
_GET = (
    r"(?:,?\s*(?:to\s+get|to\s+obtain|to\s+give|and\s+get|and\s+obtain|(?:we|I|you)\s+get"
    r"|(?:we|I|you)\s+obtain|gives(?:\s+us)?|giving(?:\s+us)?|yields|results\s+in|is|equals"
    r"|which\s+is|which\s+equals|which\s+gives(?:\s+us)?|makes)\s+)"
)
# what the arithmetic comes to: "= 20" or "to get 20", the result ending it
_COMES_TO = r"\s*(?:=\s*|" + _GET + r")" + _RES + _RESULT_END
_WORD_OP = r"(plus|minus|times|multiplied\s+by|divided\s+by|over)"
_BINARY = re.compile(
    r"(?<![\w.^*/+\-$])" + _NUM + r"\s+" + _WORD_OP + r"\s+" + _NUM + _COMES_TO,
    re.IGNORECASE,
)
_VERB = re.compile(
    r"\b(add(?:ing)?|subtract(?:ing)?|multiply(?:ing)?|divid(?:e|ing))\s+"
    + _NUM
    + r"\s+(to|from|by|and|into|with)\s+"
    + _NUM
    + r"\s*"
    + _GET
    + _RES
    + _RESULT_END,
    re.IGNORECASE,
)
# "25% of 80 is 20", "half of 30 is 15": a share of a number, and what it comes to
_PERCENT_OF = re.compile(
    r"(?<![\w.^*/+\-$])"
    + _NUM
    + r"\s*(?:"
    + PERCENT_SIGN
    + r"|percent)\s+of\s+"
    + _NUM
    + _COMES_TO,
    re.IGNORECASE,
)
_SHARE_OF = re.compile(
    r"\b(half|(?:a|one)\s+third|(?:a|one)\s+quarter)\s+of\s+" + _NUM + _COMES_TO,
    re.IGNORECASE,
)
_SHARES = {"half": "2", "third": "3", "quarter": "4"}
_SPAN = r"\$([^$]{1,120})\$"
# "when we divide $4x^3$ by $3x^3$, we get $\frac{4}{3}$": a claim that holds for every x
_VERB_SPANS = re.compile(
    r"\b(add(?:ing)?|subtract(?:ing)?|multiply(?:ing)?|divid(?:e|ing))\s+"
    + _SPAN
    + r"\s+(to|from|by|and|into|with)\s+"
    + _SPAN
    + r"\s*"
    + _GET
    + _SPAN
    + r"(?!\s*[A-Za-z\\^_(])",
    re.IGNORECASE,
)
_SPAN_IS = re.compile(
    r"(?<![\w.^*/+\-])\$([^$]{1,200})\$\s*,?\s*(?:which\s+)?(?:is|equals|gives(?:\s+us)?)\s+"
    + _RES
    + _RESULT_END,
)
# possessive quantifiers: no backtracking inside the expression (this runs on every step)
_PLAIN_EXPR = (
    r"\(?+\s*+\d++(?:\.\d++)?+\s*+\)?+(?:\s*+[-+*/^×÷]\s*+\(?+\s*+\d++(?:\.\d++)?+\s*+\)?+)++"
)
_PLAIN_IS = re.compile(
    r"(?<![\w.^*/+\-$=(])("
    + _PLAIN_EXPR
    + r")\s*,?\s*(?:which\s+)?(?:is|equals|gives(?:\s+us)?)\s+"
    + _RES
    + _RESULT_END,
)
# Words before an expression that make it part of a larger one: "twice 3 + 4 is 14".
_TAINTED_BEFORE = re.compile(
    r"(?:twice|double|triple|half|times|product|quotient|squared|cubed|root|percent|by|of|%"
    r"|plus|minus|over|than)\s*$",
    re.IGNORECASE,
)
_REL_IN_SPAN = relations.relation_pattern(relations.IN_SPAN)
_DIVISION_WITH_REMAINDER = re.compile(
    r"\bdivid(?:e|ing)\s+(?:"
    + _NUM
    + r"|(it))\s+by\s+"
    + _NUM
    + r"[^.;]{0,20}?\b(?:get|gets|is|gives)\s+"
    + _RES
    + r"\s*,?\s*(?:with|and)?\s*(?:a\s+)?remainder\s+(?:of\s+)?"
    + _RES
    + r"(?![\d.]\d)",
    re.IGNORECASE,
)
# A computation in a span: an operation after a number, or a fraction.
_COMPUTES = re.compile(
    r"\d\s*(?:" + operators.operator_alternatives(operators.PROSE_ARITHMETIC) + r")|\\frac"
)
_NAMED = re.compile(r"(?<![\w.^_{])(" + DECIMAL + r")(?![\w.]\d|\w)")
_OPS = {
    "plus": "+",
    "minus": "-",
    "times": "*",
    "multiplied by": "*",
    "divided by": "/",
    "over": "/",
}


@dataclass(frozen=True)
class ProseStatement:
    """One operation stated in words, as a relation `lhs = rhs`."""

    lhs: str
    rhs: str
    source: str
    identity: bool = False  # has variables: claimed for every value of them


def _wrap(number: str) -> str:
    return f"({number})"


def _verb(m: re.Match[str]) -> str | None:
    verb, a, prep, b = m.group(1).lower(), m.group(2), m.group(3).lower(), m.group(4)
    if verb.startswith("add") and prep in ("to", "and"):
        return f"{_wrap(a)} + {_wrap(b)}"
    if verb.startswith("subtract") and prep == "from":
        return f"{_wrap(b)} - {_wrap(a)}"
    if verb.startswith("multipl") and prep in ("by", "and", "with"):
        return f"{_wrap(a)} * {_wrap(b)}"
    if verb.startswith("divid") and prep == "by":
        return f"{_wrap(a)} / {_wrap(b)}"
    if verb.startswith("divid") and prep == "into":
        return f"{_wrap(b)} / {_wrap(a)}"
    return None


def _clean_before(text: str, start: int) -> bool:
    return _TAINTED_BEFORE.search(text[max(0, start - 12) : start]) is None


def _last_number(text: str) -> str | None:
    """What "it" divides in "Let's try 35. When we divide it by 2 ...": the number just named,
    only when the sentences before name exactly one."""
    numbers = _NAMED.findall(text)
    return numbers[0] if len(set(numbers)) == 1 else None


def prose_statements(step: str) -> list[ProseStatement]:
    """Operations a step states in words, with the result it gives them. Never raises.

    "Divide N by M to get Q with a remainder of R" is read as `M * Q + R = N` ("divide it by M"
    when the step named one number N before); the quotient alone ("divide 57 by 6 to get 9") is
    an ordinary relation, which a step about remainders reads as integer division
    (`scoring.parse.division`). A result followed by more arithmetic is not a result.
    """
    return list(_statements(step[:MAX_CHARS]))


@lru_cache(maxsize=4096)
def _statements(text: str) -> tuple[ProseStatement, ...]:
    # The arithmetic check reads a step's statements twice (relations, identities): scanned once.
    found: list[ProseStatement] = []
    for m in _DIVISION_WITH_REMAINDER.finditer(text):  # N = M * Q + R
        dividend = m.group(1) or _last_number(text[: m.start()])
        if dividend is None:
            continue
        found.append(
            ProseStatement(
                f"{_wrap(m.group(3))} * {_wrap(m.group(4))} + {_wrap(m.group(5))}",
                dividend,
                m.group().strip(),
            )
        )
    for m in _BINARY.finditer(text):
        if not _clean_before(text, m.start()):
            continue
        op = _OPS[re.sub(r"\s+", " ", m.group(2).lower())]
        found.append(
            ProseStatement(
                f"{_wrap(m.group(1))} {op} {_wrap(m.group(3))}", m.group(4), m.group().strip()
            )
        )
    for m in _PERCENT_OF.finditer(text):
        if _clean_before(text, m.start()):
            found.append(
                ProseStatement(
                    f"{_wrap(m.group(1))} / 100 * {_wrap(m.group(2))}",
                    m.group(3),
                    m.group().strip(),
                )
            )
    for m in _SHARE_OF.finditer(text):
        if _clean_before(text, m.start()):
            share = _SHARES[m.group(1).split()[-1].lower()]
            found.append(
                ProseStatement(f"{_wrap(m.group(2))} / {share}", m.group(3), m.group().strip())
            )
    for m in _VERB.finditer(text):
        if (lhs := _verb(m)) is not None:
            found.append(ProseStatement(lhs, m.group(5), m.group().strip()))
    for m in _VERB_SPANS.finditer(text):
        if any(_REL_IN_SPAN.search(m.group(g)) for g in (2, 4, 5)):
            continue
        if (lhs := _verb(m)) is not None and (
            m.group(3).lower() != "and" or m.group(1)[:3] in ("add", "mul")
        ):
            found.append(ProseStatement(lhs, m.group(5), m.group().strip(), identity=True))
    for pattern in (_SPAN_IS, _PLAIN_IS):
        for m in pattern.finditer(text):
            expr = m.group(1)
            if "=" in expr or not _COMPUTES.search(expr):
                continue  # a relation already, or a bare number: nothing stated
            if re.search(r"[A-Za-z]", latex.COMMAND_NAME.sub("", expr)):
                continue  # has a variable: not closed
            if not _clean_before(text, m.start()):
                continue
            found.append(ProseStatement(expr, m.group(2), m.group().strip()))
    return tuple(found)


_WORD_NUMBERS = {
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "half": "2",
}
_CONTINUED = re.compile(
    r"^\W*(?:(?:and|so|then|now|next)\W+)*(dividing|multiplying|adding|subtracting)\s+"
    r"(?:(?:it|this|that|the\s+result|the\s+sum|the\s+difference|the\s+product)\s+)?"
    r"(by|to|from)?\s*(?:\$\s*("
    + SIGNED_DECIMAL
    + r")\s*\$|("
    + SIGNED_DECIMAL
    + r")|(two|three|four|five|six|seven"
    r"|eight|nine|ten))(?!\w)\s*,?\s*(?:gives(?:\s+us)?|(?:we|I|you)\s+get|yields|results\s+in)\s+"
    + _RES
    + _RESULT_END,
    re.IGNORECASE,
)


def continued_operation(step: str, previous_result: str) -> ProseStatement | None:
    """ "And dividing by two gives us -1", applied to the result the previous step ended with.

    `previous_result` is that result as text (the closed right-hand side of the previous step's
    last relation); the step must open with the operation, so "it" can only mean that result.
    """
    m = _CONTINUED.match(step[:MAX_CHARS])
    if m is None:
        return None
    verb, prep = m.group(1).lower(), (m.group(2) or "").lower()
    operand = m.group(3) or m.group(4) or _WORD_NUMBERS[m.group(5).lower()]
    op = {"dividing": "/", "multiplying": "*", "adding": "+", "subtracting": "-"}[verb]
    if (
        (verb in ("dividing", "multiplying") and prep not in ("by", ""))
        or (verb == "adding" and prep not in ("to", ""))
        or (verb == "subtracting" and prep not in ("from", ""))
    ):
        return None
    return ProseStatement(f"({previous_result}) {op} ({operand})", m.group(6), m.group().strip())
