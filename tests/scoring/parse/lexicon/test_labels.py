"""Step labels: what numbers a step, at a line's start or anywhere, as tables of cases."""

from __future__ import annotations

import re

import pytest

from scoring.parse.lexicon import labels


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Step 3: add", "Step 3: "),
        ("STEP 12. add", "STEP 12. "),
        ("**Step 2**: add", "**Step 2**"),
        ("第三步：相加", "第三步："),
        ("第 12 步 相加", "第 12 步 "),
        ("(2) add", "(2) "),
        ("（二）相加", "（二）"),
        ("3. add", "3. "),
        ("一、相加", "一、"),
        ("① add", "① "),
        ("a) add", "a) "),
        ("- add", "- "),
        ("3.5 is the total", None),  # a decimal, not a label
        ("Steps are easy", None),
        ("add 3 and 4", None),
    ],
)
def test_step_label(text: str, label: str | None) -> None:
    m = labels.STEP_LABEL.match(text)
    assert (m.group() if m else None) == label


@pytest.mark.parametrize(
    ("label", "numbered"),
    [("3. ", True), ("（三）", True), ("① ", True), ("(a) ", False), ("- ", False)],
)
def test_step_numeral(label: str, numbered: bool) -> None:
    assert (labels.STEP_NUMERAL.search(label) is not None) is numbered


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("第三步", True),
        ("第 3 步", True),
        ("第十二步", True),
        ("第一百步", True),
        ("第五个", False),
        ("第步", False),  # no number
        ("三步", False),  # no 第
    ],
)
def test_cjk_step(text: str, found: bool) -> None:
    assert (re.search(labels.CJK_STEP, text) is not None) is found


@pytest.mark.parametrize(
    ("text", "found"),
    [("Step", True), ("STEP", True), ("step", True), ("StEp", False), ("steps", True)],
)
def test_step_word(text: str, found: bool) -> None:
    assert (re.match(labels.STEP_WORD, text) is not None) is found


@pytest.mark.parametrize(
    ("text", "bold"),
    [("**", True), ("__", True), ("*", False), ("_", False), ("*_", False)],
)
def test_bold(text: str, bold: bool) -> None:
    assert (re.fullmatch(labels.BOLD, text) is not None) is bold
