"""Step labels: the words and numbers that number a step or an item of a solution.

"Step 3:", "第三步", "(2)", "3.", "一、", "①": a solution numbers its steps in English or
Chinese, with digits or Chinese numerals. The segmenter cuts steps at a label that opens a line;
the answer reader blanks a label wherever it stands, since a step's number is no value it states.
Both read "Step n" and 第n步 the same way, from the fragments here.
"""

from __future__ import annotations

import re

# Chinese numerals as step and item numbering writes them (第三步, （二）, 一、).
CJK_NUMERALS = "一二三四五六七八九十"
# Markdown bold, which may wrap a label or an answer's marker (`**Step 3:**`, `__Answer__`).
BOLD = r"(?:\*\*|__)"
# The word that names a step, as written at a line's start (`Step`, `STEP`, `step`).
STEP_WORD = r"(?:step|STEP|Step)"
# 第n步 ("the n-th step"), n in digits or Chinese numerals up to the hundreds (第十二步, 第3步).
CJK_STEP = rf"第\s*[{CJK_NUMERALS}百\d]{{1,4}}\s*步"
# The label that numbers a step or an item at the start of a line or sentence, markdown bold
# allowed around it: "Step 3:", "第三步", "(2)", "3.", "3)", "一、", "①", "a)", a bullet.
STEP_LABEL = re.compile(
    BOLD
    + r"?\s*(?:"
    + STEP_WORD
    + r"\s*\d{1,3}(?:\s*[:：.)\-]|(?=\s*(?:\*|$)))"
    + "|"
    + CJK_STEP
    + r"\s*[:：，,.、]?"
    r"|[(（]\s*(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4}|[" + CJK_NUMERALS + r"]{1,3})\s*[)）]"
    r"|\d{1,3}\s*(?:[.)、](?!\d)|．)"
    r"|[a-zA-Z][.)](?=\s)"
    r"|[" + CJK_NUMERALS + r"]{1,3}\s*、"
    r"|[\u2460-\u2473\u2776-\u277f]"
    r"|[-*•+]\s"
    r")\s*" + BOLD + r"?\s*"
)
# A numeral in a label: the label numbers a step ("3.", "(三)", "①"), unlike a bullet or "(a)".
STEP_NUMERAL = re.compile(r"[\d" + CJK_NUMERALS + r"\u2460-\u2473]")
