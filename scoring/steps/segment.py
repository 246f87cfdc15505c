"""Offline step segmentation (docs/architecture.md 4.1): ReAlign's heuristics, extended for Chinese and LaTeX.

Math spans become placeholder characters first, so no rule can split them, and come back in order.
Lines, then sentences, become units; units lose their numbering, filler is dropped, and units that
cannot stand alone (titles, connectives, `...:` introductions, scraps) merge with a neighbour.
Every regex is anchored or bounded and every pass a single scan: time is linear in the input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from scoring.parse.lexicon import (
    ANSWER_WORDS,
    CJK,
    FINAL_ANSWER_WORDS,
    LEAD_WORDS,
)
from scoring.parse.lexicon.labels import BOLD, STEP_LABEL, STEP_NUMERAL
from scoring.parse.mathspans import math_spans
from scoring.schema import MAX_STEPS
from scoring.steps.language import detect_language

_MATH, _DISPLAY = "\ue000", "\ue001"  # stand for inline and display spans, restored in order
_DISPLAY_OPEN = ("$$", "\\[", "\\begin")
_PLACEHOLDER = re.compile(f"[{_MATH}{_DISPLAY}]")
_TERMINAL = tuple(".!?;。！？；】")

_HEADING = re.compile(r"#{1,6}\s+")
_ECHO = re.compile(r"####\s+(?![^\n]*(?<![\\A-Za-z])[A-Za-z]{3})")  # GSM8K's "#### 18": no words
_BOLD_LINE = re.compile(r"(\*\*|__)([^*_]+)\1[:：]?")
_RULE = re.compile(r"(?:[-*_=]\s*){3,}")
_PREAMBLE = re.compile(  # dropped only when something follows on the same unit
    r"(?i)(?:(?:好的|当然|没问题|嗯|sure|okay|ok|certainly|alright|great)[，,!！。.]"
    r"|(?:解题过程|解答过程|解答|解|solution)\s*[:：])\s*",
)
_ANSWER = re.compile(
    r"(?i)(?:" + BOLD + r"?\s*(?:" + "|".join(FINAL_ANSWER_WORDS + ANSWER_WORDS) + r")\s*[:：是]"
    r"|#{1,4}\s*answer\b)" + BOLD + "?",
)
_EN_END = re.compile(r"([.!?][\"')\]]*)\s+(?=[A-Z\\" + _MATH + _DISPLAY + "])")
_ZH_END = {
    lang: re.compile(f"[。！？；{semi}][”’」』）)】]*") for lang, semi in (("zh", ";"), ("en", ""))
}
_ABBREV = re.compile(
    r"(?i)(?<![A-Za-z])(?:e\.g|i\.e|etc|vs|cf|figs?|eqs?|approx|resp|no|thm|def|prop|sec|ch"
    r"|dr|mr|mrs|st)\.[\"')\]]*$",
)
_FILLER = re.compile(  # whole units only, and never with math or digits (see _is_filler)
    r"(?i)(?:(?:sure|certainly|of course|absolutely|okay|ok|alright|great|好的|当然|没问题)[!.,，！]?\s*)?"
    r"(?:here(?:'s| is| are)\s+(?:the|a|my|how)\b.{0,60}"
    r"|let(?:'s| us| me)\s+(?:solve|work|tackle|go|walk|break|think|approach|help)"
    r"(?:\s+(?:this|it|you|the (?:problem|question|equation)))?(?:\s+(?:down|through|out))?"
    r"(?:\s+step[- ]by[- ]step)?"
    r"|i(?:'d| would| will|'ll)? (?:be (?:happy|glad) to|can) help.{0,60}"
    r"|(?:i )?hope (?:this|that|it) helps.{0,40}|let me know if.{0,80}|feel free to.{0,80}"
    r"|solution|解题过程|解答过程|解答|解"
    r"|(?:下面|接下来|现在)?让?(?:我们|我)?来?(?:一步一步地?|逐步|详细)?地?(?:解答|解决|求解|分析|回答)"
    r"(?:一下)?(?:这个|这道|该|本)?(?:问题|题目|题)?"
    r"|希望(?:这|以上|对你|对您).{0,15}(?:帮助|有用).{0,10})?"
    r"\s*[.!:。！：]?",
)
_CONNECTIVE = re.compile(r"(?i)(?:" + "|".join(LEAD_WORDS) + r")\s*[,，:：.。]?")
_MATH_OR_DIGIT = re.compile(r"[\d" + _MATH + _DISPLAY + "]")
_CONTENT = re.compile(r"[A-Za-z0-9" + CJK + _MATH + _DISPLAY + "]")
_CONTINUATION = re.compile(r"(?:where|with)\b|其中")  # lower case: "Where" starts a sentence
_OPENERS = "【(（[“"
_CJK_OR_PUNCT = re.compile(r"[" + CJK + r"，：；。、！？]")


@dataclass(frozen=True)
class SegmentConfig:
    """How finely to cut.

    Attributes:
        split_sentences: also cut lines at sentence ends; False keeps each line whole, for texts
            already written one step a line.
        min_chars: units shorter than this with no digit or math are scraps, merged onward.
        keep_numbered_lines: when the author numbered at least two lines ("1.", "Step 2:",
            "(3)", "第4步"), each numbered line is one step: the author has chosen the steps.
    """

    split_sentences: bool = True
    min_chars: int = 4
    keep_numbered_lines: bool = True


def _protect(text: str) -> tuple[str, list[str]]:
    """Replace every math span with a placeholder, returning the spans in order."""
    pieces, spans, last = [], [], 0
    for start, end in math_spans(text):
        pieces += [text[last:start], _DISPLAY if text.startswith(_DISPLAY_OPEN, start) else _MATH]
        spans.append(text[start:end])
        last = end
    pieces.append(text[last:])
    return "".join(pieces), spans


def _sentences(line: str, lang: str) -> Iterator[str]:
    """Cut at Chinese clause ends, then at English sentence ends that are not abbreviations."""
    start = 0
    for m in _ZH_END[lang].finditer(line):
        yield from _en_sentences(line[start : m.end()])
        start = m.end()
    yield from _en_sentences(line[start:])


def _en_sentences(text: str) -> Iterator[str]:
    start = 0
    for m in _EN_END.finditer(text):
        cut = m.end(1)
        if not _ABBREV.search(text[max(start, cut - 12) : cut]):
            yield text[start:cut]
            start = m.end()
    yield text[start:]


def _is_numbered(line: str) -> bool:
    return (m := STEP_LABEL.match(line)) is not None and STEP_NUMERAL.search(m.group()) is not None


def _is_filler(unit: str) -> bool:
    """Pure filler only: any math, digit or `=` keeps the unit."""
    if _MATH_OR_DIGIT.search(unit) or "=" in unit or not _CONTENT.search(unit):
        return False
    return _FILLER.fullmatch(unit) is not None


def _units(line: str, lang: str, split: bool) -> Iterator[tuple[str, str]]:
    """The line's units with their kind: `heading`, `answer`, `echo` (GSM8K "#### 18") or `text`."""
    line = line.strip()
    if not line or _RULE.fullmatch(line):
        return
    if not _CONTENT.search(line):  # a scrap: nothing below applies, and such lines can be many
        yield line, "text"
        return
    kind = "text"
    if _ECHO.match(line):
        kind, parts = "echo", [line]
    elif _ANSWER.match(line):
        kind, parts = "answer", [line]
    else:
        if m := _HEADING.match(line):
            line, kind = line[m.end() :], "heading"
        if m := _BOLD_LINE.fullmatch(line):
            line, kind = m.group(2) + line[m.end(2) + len(m.group(1)) :], "heading"
        parts = list(_sentences(line, lang)) if split and kind == "text" else [line]
    for part in parts:
        part = part.strip()
        if m := STEP_LABEL.match(part):
            part = part[m.end() :]
        if (m := _PREAMBLE.match(part)) and _CONTENT.search(part, m.end()):
            part = part[m.end() :]
        part = part.strip()
        if part and not _is_filler(part):
            yield part, kind


def _glue(step: list[str], right: str, newline: bool = False) -> None:
    """Append `right`: after a newline before display math or after a title, flush after CJK."""
    last = step[-1][-1]
    if newline or right == _DISPLAY:
        step += ["\n", right]
    else:
        step += ["" if last in _OPENERS or _CJK_OR_PUNCT.match(last) else " ", right]


def _completes(previous: str, text: str) -> bool:
    """A lone display block finishes a previous line that stopped mid-sentence ("is given by")."""
    return text == _DISPLAY and not previous.endswith(_TERMINAL + (_DISPLAY,))


def _settle(steps: list[list[str]], carry: list[str]) -> None:
    """A carry that found nothing to introduce: its own step if it says something."""
    if not steps or any(_CONTENT.search(piece) for piece in carry):
        steps.append(carry)
    else:
        _glue(steps[-1], "".join(carry))


def _merge(units: list[tuple[str, str]], min_chars: int) -> list[str]:
    """Attach headings, connectives, `...:` introductions and scraps to their neighbours.

    A step is a list of pieces joined once at the end, so long runs of merges stay linear.
    """
    steps: list[list[str]] = []
    carry: list[str] = []
    titled = False
    for text, kind in units:
        if kind == "echo" and steps and not carry:
            _glue(steps[-1], text, newline=True)
            continue
        if carry and kind in ("heading", "answer"):
            _settle(steps, carry)
            carry = []
        if not _CONTENT.search(text):
            if steps and not carry and text[-1] not in _OPENERS:
                _glue(steps[-1], text)
            elif carry:
                _glue(carry, text)
            else:
                carry = [text]
            continue
        if steps and not carry and (_CONTINUATION.match(text) or _completes(steps[-1][-1], text)):
            _glue(steps[-1], text)
            continue
        if carry:
            _glue(carry, text, titled)
        step, carry, titled = carry or [text], [], kind == "heading"
        scrap = len(text) < min_chars and not _MATH_OR_DIGIT.search(text)
        bare = kind == "answer" and _ANSWER.fullmatch(text)  # "# Answer", "最终答案：" alone
        if titled or bare or text.endswith((":", "：")) or _CONNECTIVE.fullmatch(text) or scrap:
            carry = step
        else:
            steps.append(step)
    if carry:
        _settle(steps, carry)
    return ["".join(step) for step in steps]


def cap_steps(steps: list[str], limit: int = MAX_STEPS) -> tuple[list[str], list[str]]:
    """At most `limit` steps, the rest joined into the last (it holds the final answer), and the
    warning that says so: grading time is linear in the steps, and a solution that loops for
    thousands of steps must not hold a grader for minutes. `limit` is the most `solution_steps`
    a request may give."""
    if len(steps) <= limit:
        return steps, []
    joined = [*steps[: limit - 1], "\n".join(steps[limit - 1 :])]
    warning = (
        f"segmentation: {len(steps)} steps; steps {limit}-{len(steps)} are graded as one "
        f"(at most {limit} per grade)"
    )
    return joined, [warning]


def segment_steps(
    text: str,
    language: Literal["auto", "en", "zh"] = "auto",
    config: SegmentConfig = SegmentConfig(),
) -> list[str]:
    """Split a free-text solution into ordered, non-empty steps without losing its mathematics.

    Args:
        text: the solution as written.
        language: `auto` detects it; it decides whether ASCII `;` ends a clause (Chinese only).
        config: how finely to cut.

    Returns:
        The steps, stripped, in order; every math span and every digit outside step numbering
        survives verbatim.
    """
    if not text or not text.strip():
        return []
    text = _PLACEHOLDER.sub("", text.replace("\r\n", "\n"))
    lang = detect_language(text) if language == "auto" else language
    protected, spans = _protect(text)
    lines = protected.split("\n")
    labelled = [_is_numbered(line) for line in lines]
    whole = config.keep_numbered_lines and sum(labelled) >= 2
    units = [
        unit
        for line, numbered in zip(lines, labelled, strict=True)
        for unit in _units(line, lang, config.split_sentences and not (whole and numbered))
    ]
    restored = iter(spans)
    out = [_PLACEHOLDER.sub(lambda _: next(restored), s) for s in _merge(units, config.min_chars)]
    return [s.strip() for s in out if s.strip()]
