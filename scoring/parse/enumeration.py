"""Answers stated part by part under enumeration marks: `(1) 是 (2) 5`, `（Ⅰ）a=2；（Ⅱ）3`, `①3 ②4`.

Exam problems with several questions are answered with the questions' own numbering, and human
graders read such an answer part by part, in that order. Read as one expression it is something
else: `(1)3 (2)4` is the product 24 to a parser, and a reader that looks for the value a text
states keeps its last number. A text is enumerated when it carries at least two marks of one
style, numbered 1, 2, 3, ... without gaps, the first opening the text, each followed by a
non-empty part; a mark is a number (arabic, roman, or the Unicode roman numerals) in round
brackets, ASCII or full-width, or a circled number. Anything else (`(2)(3)`, `由(1)得`, one mark
alone) is not an enumeration.
"""

from __future__ import annotations

import re

from scoring.parse.lexicon import joiners

_ROMAN = {
    "i": 1,
    "ii": 2,
    "iii": 3,
    "iv": 4,
    "v": 5,
    "vi": 6,
    "vii": 7,
    "viii": 8,
    "ix": 9,
    "x": 10,
}
_MARK = re.compile(
    r"[(（]\s*(?P<number>\d{1,2}|[ivx]{1,4}|[IVX]{1,4}|[\u2160-\u2169])\s*[)）]"
    r"|(?P<circled>[\u2460-\u2473])"
)
# What may come before a bracketed mark, and before the first of any style: nothing, spacing or
# a separator (not a word: `由(1)得` cites an equation); a circled number marks a part anywhere
_OPENERS = frozenset(" \t\n,，;；:：。、")
_TRAILING = re.compile(
    r"(?:\s*(?:" + joiners.joiner_alternatives(joiners.LIST_END) + r")\s*)+$", re.IGNORECASE
)


def _opens(text: str, at: int) -> bool:
    return at == 0 or text[at - 1] in _OPENERS


def _number(mark: re.Match[str]) -> tuple[str, int] | None:
    """(style, number) of one mark; None for a bracketed word that is no numeral."""
    if circled := mark.group("circled"):
        return "circled", ord(circled) - 0x2460 + 1
    text = mark.group("number")
    if text.isdigit():
        return "arabic", int(text)
    if len(text) == 1 and "\u2160" <= text <= "\u2169":
        return "roman", ord(text) - 0x2160 + 1
    value = _ROMAN.get(text.lower())
    return None if value is None else ("roman" if text.isupper() else "small roman", value)


def _marks(text: str) -> list[re.Match[str]] | None:
    """The marks numbering the parts of `text` from its first mark on (the rules above), or
    None when they do not."""
    numbered = [
        (m, n)
        for m in _MARK.finditer(text)
        if (m.group("circled") or _opens(text, m.start())) and (n := _number(m)) is not None
    ]
    first = next((i for i, (_, (_, value)) in enumerate(numbered) if value == 1), None)
    if first is None or not _opens(text, numbered[first][0].start()):
        return None
    style = numbered[first][1][0]
    marks: list[re.Match[str]] = []
    for mark, number in numbered[first:]:
        if number == (style, len(marks) + 1):
            marks.append(mark)
    return marks if len(marks) >= 2 else None


def enumeration_start(text: str) -> int | None:
    """Where the enumerated answer in `text` begins (its first mark), or None."""
    marks = _marks(text)
    return marks[0].start() if marks else None


def enumerated_parts(text: str) -> list[str] | None:
    """The parts of an answer that is enumerated from its start, in order, without their marks
    and trailing separators; None for any other text."""
    marks = _marks(text)
    if not marks or text[: marks[0].start()].strip():
        return None
    ends = [m.start() for m in marks[1:]] + [len(text)]
    parts = [
        _TRAILING.sub("", text[m.end() : end]).strip() for m, end in zip(marks, ends, strict=True)
    ]
    return parts if all(parts) else None
