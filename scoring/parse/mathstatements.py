"""Statements and relation chains in a step: delimited math spans, then plain-text runs.

Prose must never be read as math, so plain text only yields *runs* of tokens that look like
arithmetic (numbers, single letters, operators, known LaTeX commands, units after numbers); any
other word or character ends a run, and a run touching a ratio colon (`3:4 = 6:8`) is dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from scoring.parse.currency import without_currency_signs
from scoring.parse.lexicon import (
    CJK,
    CJK_UNIT,
    CONNECTIVE,
    DECIMAL,
    GROUPED,
    TEXT_COMMAND,
    THOUSANDS,
    UNIT_WORDS,
    VULGAR_FRACTIONS,
    delimiters,
    labels,
    latex,
    latin_words,
    relations,
)
from scoring.parse.mathparse import PLAIN_WORDS
from scoring.parse.mathspans import math_spans

Op = Literal["=", "approx", "<", ">", "<=", ">=", "!="]

MAX_SIDES = 16

_NUMBERING = re.compile(
    r"^\s*(?:\(\d+\)|\d+[.、)](?=\s)|"
    + labels.STEP_WORD
    + r"\s*\d+\s*[:.：]|第["
    + labels.CJK_NUMERALS
    + r"\d]+步[:：]?)"
)
_DELIMS = re.compile(
    r"^(?:"
    + delimiters.wrapped_math(".*")
    + r"|\\begin\{(?:equation|align|gather|eqnarray|multline)\*?\}(.*)\\end\{[a-z]+\*?\})$",
    re.DOTALL,
)
_TEXT_GROUP = re.compile(TEXT_COMMAND + r"\s*\{[^{}]*\}")
_REL = relations.relation_pattern(relations.CHAIN)
_OPS: dict[str, Op | None] = {
    "=": "=",
    ":=": "=",
    "==": "=",
    r"\doteq": "=",
    r"\approx": "approx",
    "≈": "approx",
    r"\simeq": "approx",
    "≃": "approx",
    r"\neq": "!=",
    r"\ne": "!=",
    "≠": "!=",
    "!=": "!=",
    "<": "<",
    r"\lt": "<",
    ">": ">",
    r"\gt": ">",
    "<=": "<=",
    r"\le": "<=",
    r"\leq": "<=",
    r"\leqslant": "<=",
    "≤": "<=",
    ">=": ">=",
    r"\ge": ">=",
    r"\geq": ">=",
    r"\geqslant": ">=",
    "≥": ">=",
}
_SEPARATOR = re.compile(
    r"[,;，；]|\\\\|=>|->|\\(?:q?quad|Rightarrow|Longrightarrow|implies|iff|Leftrightarrow"
    r"|Longleftrightarrow|therefore|because|rightarrow|longrightarrow|to|mapsto|text\s*\{[^{}]*\})"
    r"(?![A-Za-z])|(?<!\.)\.(?=\s|$)"
)
_UNIT_TEXT = re.compile(r"\\\w+\s*\{\s*[A-Za-z]+\s*\}$|\\\w+\s*\{\s*[" + CJK + r"]{1,3}\s*\}$")
_CONNECTIVE_TEXT = re.compile(r"\\\w+\s*\{\s*(?:" + CONNECTIVE + r")\s*\}$", re.IGNORECASE)
_PLAIN_TOKEN = re.compile(
    r"(?P<text>" + TEXT_COMMAND + r"\s*\{[^{}]*\})|(?P<cmd>" + latex.COMMAND + r"|\\[%,;! ])"
    r"|(?P<num>" + GROUPED + r"|" + DECIMAL + r")|(?P<word>[A-Za-z]+)"
    r"|(?P<op>[-+*/^()\[\]{}=<>!%|_×÷−·⋅≈≠≤≥²³√∛∜°" + VULGAR_FRACTIONS + r"])|(?P<space>[ \t]+)"
    r"|(?P<colon>[:：])"
    r"|(?P<unit>" + CJK_UNIT + r")|(?P<other>.)",
    re.DOTALL,
)
_PLAIN_COMMAND_TEXT = (
    r"\frac \dfrac \tfrac \sqrt \times \cdot \div \pi \approx \le \leq \ge \geq \neq \ne \lt \gt"
    r" \left \right \binom \circ \% \, \; \! \theta \alpha \beta"
)
_PLAIN_COMMANDS = frozenset(_PLAIN_COMMAND_TEXT.split())
_DIGITS = tuple("0123456789")
_NAME_THEN_SPAN = re.compile(r"(?<![A-Za-z\\$])([A-Za-z])\s*=\s*\$([^$A-Za-z]{1,40})\$")
# A number after these words is an operand of an operation stated in words ("half of 30 = 15",
# "25 percent of 40 = 10", "20% off 50 = 40", "the square root of 16 = 4", "the sum of 5 and
# 7 = 12", "¾ of 12 = 9"), not the whole side; "a height of 16/2 = 8" names a quantity and is read.
_OPERATOR_WORD_BEFORE = re.compile(
    r"(?:\b(?:times|plus|minus|over|by|twice|double|triple|thrice|half|squared|cubed)"
    r"|\b(?:half|thirds?|quarters?|(?:four|fif|six|seven|eigh|nin|ten|hundred)ths?|percent"
    r"|square|cube|root|sum|product|difference|quotient|reciprocal|average|mean)\s+of"
    r"|(?:%|\d\s*/\s*\d+|[" + VULGAR_FRACTIONS + r"]|\bpercent)\s+(?:of|off)"
    r"|\b(?:(?:sum|product|difference|quotient)\s+of|between)\s+\$?[-\d.,]+\$?\s+and)$",
    re.IGNORECASE,
)
_OPEN_OPERATOR = re.compile(r"[-+*/×÷·⋅−]\s")
_ARGUMENT_OF = re.compile(r"[A-Za-z]$|(?<![A-Za-z])(?:log|lg|lb|det|gcd|lcm|max|min|arg)\s$")
_BOUNDARY = re.compile(r"[A-Za-z\u3000-\u303f" + CJK + r"\uff00-\uffef,.;:!?()\"'\n]")


@dataclass(frozen=True)
class Statement:
    """A piece of math that may hold a relation chain; `source` is where it came from."""

    text: str
    source: str


def _depths(text: str) -> list[int]:
    depth, out = 0, []
    for ch in text:
        if ch in "{([":
            depth += 1
        elif ch in "})]":
            depth = max(0, depth - 1)
        out.append(depth)
    return out


def _is_unit_text(text: str, start: int, group: str) -> bool:
    """`3 \\text{ cm}` is a unit; `1 \\text{ or } x = 2` joins two statements."""
    before = text[:start].rstrip()
    return (
        bool(before)
        and before[-1] in "0123456789)}"
        and bool(_UNIT_TEXT.match(group))
        and _CONNECTIVE_TEXT.match(group) is None
    )


def split_statements(math: str) -> list[str]:
    """Split math at top-level commas, `\\quad`, `\\Rightarrow`, prose `\\text{}` and the like."""
    depth = _depths(math)
    thousands = {m.start() + i for m in THOUSANDS.finditer(math) for i in range(len(m.group()))}
    pieces, start = [], 0
    for m in _SEPARATOR.finditer(math):
        if depth[m.start()] or m.start() in thousands:
            continue
        if m.group().startswith(r"\text") and _is_unit_text(math, m.start(), m.group()):
            continue
        pieces.append(math[start : m.start()])
        start = m.end()
    pieces.append(math[start:])
    return [p.strip() for p in pieces if p.strip()]


def split_chain(statement: str) -> list[tuple[str, Op | None, str]]:
    """`a = b < c` -> [(a, "=", b), (b, "<", c)]; opaque relations (`\\equiv`, `\\in`) get None."""
    depth = _depths(statement)
    sides, ops, start = [], [], 0
    for m in _REL.finditer(statement):
        if depth[m.start()]:
            continue
        sides.append(statement[start : m.start()].strip())
        ops.append(_OPS.get(m.group()))
        start = m.end()
        if len(sides) > MAX_SIDES:
            return []
    sides.append(statement[start:].strip())
    return [(sides[i], ops[i], sides[i + 1]) for i in range(len(ops)) if sides[i] and sides[i + 1]]


def _is_ratio(text: str, start: int, end: int) -> bool:
    """`3:4` or `3 : 4` is a ratio; `Step 1: 3 + 4` is a label."""
    before, after = text[:start], text[end:]
    if not (re.search(r"\d\s*$", before) and re.match(r"\s*\d", after)):
        return False
    return not before.endswith(_DIGITS) or not after.startswith(" ")


def _bounded(text: str, start: int, end: int) -> bool:
    """A run must sit between words or punctuation, not next to an operator we cannot read:
    in `3&2 = 3 + 2(2) + ...` the run `2 = ...` is only half of the left side."""
    before, after = text[:start].rstrip(), text[end:].lstrip()
    if _OPERATOR_WORD_BEFORE.search(before[-40:]):  # `3 times 4 = 12`: `4 = 12` is half a relation
        return False
    return (not before or _BOUNDARY.match(before[-1]) is not None) and (
        not after or _BOUNDARY.match(after[0]) is not None
    )


def _without_prose_operand(run: str, before: str) -> str:
    """ "the price - 22 = 76 - 22 = 54": a run that opens with a binary operator after a word
    continues an expression whose operand is that word; its first side is not an expression.
    Likewise a run glued to a word (`log2(8) = 3`, `lg100 = 2`, `cm2 = 100`) or one space after
    a function name the run cannot read (`log 2 = 0.301`): it opens inside that word's argument
    or subscript, so its first side is not the closed expression it looks like."""
    operand = _OPEN_OPERATOR.match(run) and re.search(r"[A-Za-z" + CJK + r"']\s*$", before)
    if not operand and not _ARGUMENT_OF.search(before):
        return run
    first = _REL.search(run)
    return run[first.end() :] if first else ""


def _plain_runs(text: str) -> list[str]:
    """Maximal runs of arithmetic-looking tokens in prose that contain a relation."""
    runs: list[str] = []
    start: int | None = None
    prev = ""  # kind of the previous non-space token in the run
    poisoned = False

    def close(end: int, poison_next: bool = False) -> None:
        nonlocal start, poisoned
        if start is not None and not poisoned and _bounded(text, start, end):
            run = _without_prose_operand(text[start:end].strip(), text[:start]).rstrip(" ([{")
            if _REL.search(run):
                runs.append(run)
        start, poisoned = None, poison_next

    for m in _PLAIN_TOKEN.finditer(text):
        kind, val = m.lastgroup or "other", m.group()
        ok = kind in ("num", "op") or (kind == "space" and len(val) < 3)  # wide gaps separate
        if kind == "cmd":
            ok = val in _PLAIN_COMMANDS
        elif kind == "text":
            ok = prev == "num" and bool(_UNIT_TEXT.match(val))
        elif kind == "word":
            ok = (
                len(val) == 1
                or val in PLAIN_WORDS
                or (prev == "num" and val in UNIT_WORDS)
                or (prev == "%" and val == "of")
            )
        elif kind == "unit":
            ok = prev == "num"
        elif kind == "colon" and _is_ratio(text, m.start(), m.end()):
            poisoned = True  # neither side of a ratio is an equation on its own
            close(m.start(), poison_next=True)
            continue
        if not ok:
            close(m.start())
            continue
        if start is None:
            if kind == "space":
                continue
            start = m.start()
        if kind != "space":
            prev = "%" if val in ("%", r"\%") else kind
    close(len(text))
    return runs


def find_statements(step: str) -> list[Statement]:
    """Every math statement of a step: from delimited spans first, then from plain-text runs."""
    text = without_currency_signs(_NUMBERING.sub("", step).replace(r"\$", " "))
    text = _NAME_THEN_SPAN.sub(r"$\1 = \2$", text)  # `x=$1250$`: one relation, not two pieces
    found: list[Statement] = []
    plain: list[str] = []
    last = 0
    for start, end in math_spans(text):
        span = text[start:end]
        m = _DELIMS.match(span)
        math = next((g for g in m.groups() if g is not None), "") if m else ""
        if (
            span.startswith("$")
            and not span.startswith("$$")
            and latin_words(3).search(_TEXT_GROUP.sub(" ", math))
        ):
            plain.append(text[last:end].replace("$", " "))  # `$5 and $6`: currency, not math
        else:
            plain.append(text[last:start])
            found.extend(Statement(s, span) for s in split_statements(math))
        plain.append("\n")
        last = end
    plain.append(text[last:])
    for run in _plain_runs("".join(plain)):
        found.extend(Statement(s, run) for s in split_statements(run))
    return found
