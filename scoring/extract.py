"""Where a solution states its final answer (DESIGN.md 4.7): marked forms first, then guesses."""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoring.mathspans import math_spans

_BOXED = re.compile(r"\\(?:boxed|fbox)\s*\{")
_CN_FINAL = re.compile(r"最终答案\s*[:：]?\s*【")
_LAST_BRACKET = re.compile(r"【([^【】]*)】\s*[。.]?\s*$")
_FINAL = re.compile(r"final answer\s*(?:is)?\s*[:：]?\s*(?:the final answer is\s*)?", re.IGNORECASE)
_HASH_ANSWER = re.compile(r"^#\s*Answer\s*$", re.IGNORECASE | re.MULTILINE)
_ANSWER_IS = re.compile(r"\bthe (?:final )?answer is\s*[:：]?\s*", re.IGNORECASE)
_GSM8K = re.compile(r"####\s*(.+)")
_CN_ANSWER = re.compile(r"答案(?:是|为)\s*[:：]?\s*")
_EQ_RHS = re.compile(r"=\s*([^=]+)$")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:/\d+)?")
_LEADING_MATH = re.compile(r"\s*(?:\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\])")
_SENTENCE_END = re.compile(r"\.\s|。|；|;")
_MATH_INLINE = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)")


def _clean(answer: str) -> str | None:
    text = answer.strip()
    text = re.sub(r"^(?:\$+|\\\(|\\\[)|(?:\$+|\\\)|\\\])$", "", text).strip()
    text = text.rstrip("。.，,;；").strip()
    text = re.sub(r"^(?:\$+|\\\(|\\\[)|(?:\$+|\\\)|\\\])$", "", text).strip()
    return text or None


def _first_line(text: str) -> str:
    """The answer after an anchor: the leading math span, else the clause up to a sentence end."""
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    if m := _LEADING_MATH.match(line):
        return next(g for g in m.groups() if g is not None)
    return _SENTENCE_END.split(line, 1)[0]


def _boxed(text: str) -> str | None:
    """The content of the last `\\boxed{}` that closes, braces counted, in one pass over the text
    (scanning on from every opening took quadratic time on text full of them)."""
    openings = {m.end() for m in _BOXED.finditer(text)}
    if not openings:
        return None
    found, found_at = None, -1
    open_braces: list[int] = []
    for i, ch in enumerate(text):
        if ch not in "{}" or (i and text[i - 1] == "\\"):
            continue
        if ch == "{":
            open_braces.append(i + 1)
        elif open_braces and (start := open_braces.pop()) in openings and start > found_at:
            found, found_at = text[start:i], start
    return found


@dataclass(frozen=True)
class FoundAnswer:
    """An answer and whether the solution marked it as such (boxed, "final answer", ...)."""

    text: str | None
    anchored: bool


def find_answer(text: str) -> FoundAnswer:
    """The final answer a solution states, and whether it was marked.

    In order: the last `\\boxed{}`/`\\fbox{}` (braces counted), StepMathBench's `最终答案：【...】`,
    "Final Answer:", PRM800K's "# Answer", "the answer is", "答案是/为", GSM8K's "####"; then,
    unmarked, the right-hand side of the last line's equation, then the last number.
    """
    if not text or not text.strip():
        return FoundAnswer(None, False)
    if (boxed := _boxed(text)) is not None:
        return FoundAnswer(_clean(boxed), True)
    cn = list(_CN_FINAL.finditer(text))
    if cn:
        rest = text[cn[-1].end():]
        return FoundAnswer(_clean(rest.split("】", 1)[0]), True)
    if m := _LAST_BRACKET.search(text):
        return FoundAnswer(_clean(m.group(1)), True)
    for pattern in (_FINAL, _HASH_ANSWER, _ANSWER_IS, _CN_ANSWER):
        hits = list(pattern.finditer(text))
        if hits:
            answer = _clean(_first_line(text[hits[-1].end():]))
            if answer:
                return FoundAnswer(answer, True)
    if hits := _GSM8K.findall(text):
        return FoundAnswer(_clean(hits[-1]), True)
    return FoundAnswer(_fallback(text), False)


def extract_answer(text: str) -> str | None:
    """The final answer a solution states (marked, else the best guess), or None."""
    return find_answer(text).text


def answer_candidates(text: str, lines: int = 2, limit: int = 8) -> list[str]:
    """Every expression an unmarked answer may be, from the last `lines` non-empty lines.

    A solution that never marks its answer usually states it in its closing sentence, but not
    always as the last number: each side of each math span's equations, then each number.
    """
    tail = "\n".join([ln for ln in text.splitlines() if ln.strip()][-lines:])
    found: list[str] = []
    for start, end in reversed(math_spans(tail)):
        span = _clean(tail[start:end]) or ""
        found += reversed(span.split("="))  # each side of a chain, the last first
    found += reversed(_NUMBER.findall(tail))
    unique = list(dict.fromkeys(c for c in (_clean(f) for f in found) if c))
    return unique[:limit]


def _fallback(text: str) -> str | None:
    last = next((ln for ln in reversed(text.splitlines()) if ln.strip()), "")
    spans = [a or b for a, b in _MATH_INLINE.findall(last)]
    if spans and (m := _EQ_RHS.search(spans[-1])):
        return _clean(m.group(1))
    numbers = _NUMBER.findall(text)
    return _clean(numbers[-1]) if numbers else None


