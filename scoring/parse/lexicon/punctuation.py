"""Punctuation: the marks that end a sentence or a clause, in English and in Chinese.

English writes half-width marks followed by a space (`.`, `!`, `?`, `;`); Chinese full-width
marks with no space after them (`。`, `！`, `？`, `；`, and the enumeration comma `、`). A reader
that cuts text into sentences or strips the punctuation that closes an answer needs some of each
kind; the marks are listed once here, and each reader composes the kinds it needs. A half-width
full stop also writes decimals and abbreviations, so English marks end a sentence only before
a space or the end of the text.
"""

from __future__ import annotations

import re
from functools import lru_cache

# Each kind of mark, half-width (English) first, then full-width (Chinese).
FULL_STOPS = ".。"
EXCLAMATIONS = "!！"
QUESTIONS = "?？"
SEMICOLONS = ";；"
COMMAS = ",，"
COLONS = ":："
# The marks that end a sentence in English text, and in Chinese text.
LATIN_SENTENCE_ENDS = ".!?"
CJK_SENTENCE_ENDS = "。！？"


def mark_class(*marks: str) -> str:
    """The marks of all `marks` as the body of one character class, each mark once."""
    return "".join(re.escape(mark) for mark in dict.fromkeys("".join(marks)))


@lru_cache(maxsize=16)
def trailing_marks(*marks: str) -> re.Pattern[str]:
    """The run of spaces and of the given marks that closes a text (`"x = 3 。"` -> `" 。"`):
    what is stripped from a value before it is read."""
    return re.compile(r"[\s" + mark_class(*marks) + r"]+$")


@lru_cache(maxsize=16)
def sentence_ends(cjk_marks: str = CJK_SENTENCE_ENDS) -> re.Pattern[str]:
    """The mark that ends a sentence: an English end (`LATIN_SENTENCE_ENDS`) before a space or
    the end of the text, or any of `cjk_marks`, which need no space after them."""
    return re.compile(
        r"[" + mark_class(LATIN_SENTENCE_ENDS) + r"](?=\s|$)|[" + mark_class(cjk_marks) + "]"
    )
