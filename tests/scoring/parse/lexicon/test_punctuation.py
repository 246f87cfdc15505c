"""Punctuation: sentence ends and the marks that close a text, as tables of cases."""

from __future__ import annotations

import re

import pytest

from scoring.parse.lexicon import punctuation as p


@pytest.mark.parametrize(
    ("marks", "text", "inside"),
    [
        ((p.FULL_STOPS,), ".", True),
        ((p.FULL_STOPS,), "。", True),
        ((p.FULL_STOPS,), "a", False),  # `.` is the mark, not any character
        ((p.COMMAS, p.SEMICOLONS), "，", True),
        ((p.COMMAS, p.SEMICOLONS), ";", True),
        ((p.COMMAS, p.SEMICOLONS), ":", False),
        ((p.LATIN_SENTENCE_ENDS,), "?", True),
        ((p.LATIN_SENTENCE_ENDS,), "？", False),  # full-width: a Chinese mark
        ((p.CJK_SENTENCE_ENDS,), "！", True),
        (("]^-\\",), "^", True),  # marks special in a class are escaped
        (("]^-\\",), "a", False),
    ],
)
def test_mark_class(marks: tuple[str, ...], text: str, inside: bool) -> None:
    assert (re.fullmatch("[" + p.mark_class(*marks) + "]", text) is not None) is inside


def test_mark_class_names_each_mark_once() -> None:
    assert p.mark_class(p.FULL_STOPS, ".") == r"\.。"


@pytest.mark.parametrize(
    ("marks", "text", "stripped"),
    [
        ((p.FULL_STOPS, p.COMMAS), "x = 3 。", "x = 3"),
        ((p.FULL_STOPS, p.COMMAS), "3.5", "3.5"),  # a decimal point inside stays
        ((p.FULL_STOPS, p.COMMAS), "3, .", "3"),
        ((p.FULL_STOPS,), "3,", "3,"),  # a mark not asked for stays
        ((p.FULL_STOPS, p.COLONS), "答案：", "答案"),
        ((p.EXCLAMATIONS,), "yes!!", "yes"),
    ],
)
def test_trailing_marks(marks: tuple[str, ...], text: str, stripped: str) -> None:
    assert p.trailing_marks(*marks).sub("", text) == stripped


@pytest.mark.parametrize(
    ("cjk", "text", "ends"),
    [
        (p.CJK_SENTENCE_ENDS, "x is 3. So y is 4", ["."]),
        (p.CJK_SENTENCE_ENDS, "x is 3.5 and done.", ["."]),  # a decimal point ends nothing
        (p.CJK_SENTENCE_ENDS, "Done! Really?", ["!", "?"]),
        (p.CJK_SENTENCE_ENDS, "x=3。y=4！", ["。", "！"]),  # no space after Chinese marks
        (p.CJK_SENTENCE_ENDS, "x=3；y=4", []),
        (p.CJK_SENTENCE_ENDS + p.SEMICOLONS, "x=3；y=4; z", ["；", ";"]),
        (p.CJK_SENTENCE_ENDS + p.SEMICOLONS, "e.g.x", []),
    ],
)
def test_sentence_ends(cjk: str, text: str, ends: list[str]) -> None:
    assert [m.group() for m in p.sentence_ends(cjk).finditer(text)] == ends
