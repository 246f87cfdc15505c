"""A solution as it is graded: without the text it addresses to the grader (docs/injection.md).

Such text is not mathematics, and grading it at all lets it gain: as a step of its own it earns
what any step nothing refutes earns, and a model that reads it may obey it. So the grade reads
the solution as if it were absent. `strip_text` cuts each stretch `addressed_spans` found, and
then whatever it leaves without content: a bracket, sentence or line holding nothing but
punctuation, markup, filler words ("so", "please", "另外") and the grader's names goes with it,
so the cut leaves no empty step behind; a line that keeps its mathematics keeps it, tidied where
the cut was made and nowhere else. Each stretch cut is returned as an `AddressedPiece`, with
where it stood, to be reported as a step of its own that earns nothing
(`scoring.score.addressed`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.judge.checks.addressed import Addressed, addressed_spans
from scoring.judge.checks.grader_phrases import ROLE_WORDS
from scoring.parse.fold import fold
from scoring.parse.lexicon import latex, punctuation


@dataclass(frozen=True)
class AddressedPiece:
    """A stretch addressed to the grader, as written, and what made it so (`reading`).

    `at` is where it stood in the graded text (the offset of the cut); `step` is the 0-based
    given step it came from, when the solution came as steps (else None)."""

    text: str
    reading: str
    at: int
    step: int | None = None


@dataclass(frozen=True)
class Stripped:
    """A text without what it addressed to the grader, and the pieces cut from it."""

    text: str
    pieces: tuple[AddressedPiece, ...]


_FILLER = re.compile(
    r"\b(?:so|and|also|please|pls|thanks?|thank you|ps|p\.s|nb|n\.b|btw|by the way|note|oh|ok|"
    r"okay|again|therefore|thus|hence|then|but|however|moreover|furthermore|additionally|"
    r"finally|besides|anyway|i think|kindly|sincerely|regards|best)\b"
    r"|所以|因此|另外|此外|同时|并且|而且|谢谢|感谢|备注|附注|注|最后|总之|然后|麻烦了|辛苦了"
)
_CONTENT = re.compile(r"[0-9a-z\u3400-\u9fff]")
_SENTENCE_END = punctuation.sentence_ends(punctuation.CJK_SENTENCE_ENDS + punctuation.SEMICOLONS)
_OPENERS = {"(": ")", "[": "]", "{": "}", "（": "）", "【": "】"}
_COMMAND = re.compile(latex.COMMAND + r"\s*$")
_COMMENT_OPEN, _COMMENT_CLOSE = "<!--", "-->"


def has_content(text: str) -> bool:
    """Whether text says anything once markup, punctuation, filler words and the names of a
    grader (a bare "Grader /") are set aside."""
    return bool(_CONTENT.search(ROLE_WORDS.sub(" ", _FILLER.sub(" ", fold(text).text))))


def _units(text: str, a: int, b: int) -> list[tuple[int, int]]:
    """The units around [a, b), innermost first, each as the span it would cut whole: its
    brackets (a LaTeX command before a brace, an HTML comment's marks), its sentence (with the
    sentence's end), its line (with a line break)."""
    line_start = text.rfind("\n", 0, a) + 1
    line_end = text.find("\n", b)
    line_end = len(text) if line_end < 0 else line_end
    units = _groups(text, a, b, line_start, line_end)
    ends = [m.end() for m in _SENTENCE_END.finditer(text, line_start, line_end)]
    s_start = max([e for e in ends if e <= a], default=line_start)
    s_end = min([e for e in ends if e >= b], default=line_end)
    units.append((s_start, s_end))
    # a line goes with its line break: the one after it, or, at the end, the one before it;
    # between two blank lines, with one of them (the paragraphs around it stay apart, once)
    end = line_end + 1
    if text[line_start - 2 : line_start] == "\n\n" and text[end : end + 1] == "\n":
        end += 1
    units.append((line_start, end) if line_end < len(text) else (max(0, line_start - 1), line_end))
    return units


def _groups(text: str, a: int, b: int, lo: int, hi: int) -> list[tuple[int, int]]:
    """The bracket groups and HTML comments on the line that hold [a, b), innermost first,
    delimiters included."""
    found = []
    stack: list[tuple[str, int]] = []
    i = lo
    while i < hi:
        if text.startswith(_COMMENT_OPEN, i):
            stack.append((_COMMENT_OPEN, i))
            i += len(_COMMENT_OPEN)
            continue
        if text.startswith(_COMMENT_CLOSE, i) and stack and stack[-1][0] == _COMMENT_OPEN:
            _, at = stack.pop()
            i += len(_COMMENT_CLOSE)
            if at <= a and i >= b:
                found.append((at, i))
            continue
        char = text[i]
        if char in _OPENERS:
            stack.append((char, i))
        elif stack and _OPENERS.get(stack[-1][0]) == char:
            opener, at = stack.pop()
            if at < a and i >= b:
                command = _COMMAND.search(text, lo, at)
                found.append((command.start() if opener == "{" and command else at, i + 1))
        i += 1
    return sorted(found, key=lambda span: span[1] - span[0])


# Where a cut was made, what it leaves dangling is tidied, and nothing else: `_CUT` marks the
# place while the patterns run.
_CUT, _LINES_CUT = "\x00", "\x01"
_TIDY = (
    (re.compile(r"[ \t]+\x00[ \t]+"), " \x00"),  # the spaces on both sides: one is kept
    (
        re.compile(r"[ \t]+(\x00+)(?=[\s.,;:!?。！？，；：)\]}$]|$)"),
        r"\1",
    ),  # none before punctuation
    (
        re.compile(r"[,;:，；：](\x00+)(?=[ \t]*(?:[.!?。！？\n]|$))"),
        r"\1",
    ),  # a separator left dangling
    (re.compile(r"([.!?。！？])[ \t]*(\x00+)[ \t]*[.!?。！？]"), r"\1\2"),  # a sentence end twice
)


def _tidy(text: str) -> str:
    """The graded text, marked where cuts were made: what a cut left dangling there (spaces,
    a separator before a sentence's end, a second sentence end) goes; then the marks."""
    for pattern, replacement in _TIDY:
        text = pattern.sub(replacement, text)
    return text.replace(_CUT, "").replace(_LINES_CUT, "")


def strip_text(text: str, spans: Sequence[Addressed] | None = None) -> Stripped:
    """`text` without its stretches addressed to the grader (`spans`, found when not given), and
    the pieces cut."""
    spans = addressed_spans(text) if spans is None else spans
    if not spans:
        return Stripped(text, ())
    cut = bytearray(len(text))
    for span in spans:
        cut[span.start : span.end] = b"\x01" * (span.end - span.start)
        for lo, hi in _units(text, span.start, span.end):
            kept = "".join(c for c, gone in zip(text[lo:hi], cut[lo:hi], strict=True) if not gone)
            if has_content(kept):
                break
            cut[lo:hi] = b"\x01" * (hi - lo)
    return Stripped(_graded(text, cut), _pieces(text, cut, spans))


def _graded(text: str, cut: bytearray) -> str:
    """The text without what was cut, tidied where a cut was made within a line (a cut that
    took whole lines leaves the lines around it as written)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if not cut[i]:
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < len(text) and cut[j]:
            j += 1
        out.append(_LINES_CUT if "\n" in text[i:j] else _CUT)
        i = j
    return _tidy("".join(out))


def _pieces(text: str, cut: bytearray, spans: Sequence[Addressed]) -> tuple[AddressedPiece, ...]:
    """One piece per stretch cut whole (what a reader would call one note: it may hold several
    spans), as written, with where it stood in the graded text."""
    graded = _graded(text, cut)
    pieces = []
    i = 0
    while i < len(text):
        if not cut[i]:
            i += 1
            continue
        j = i
        while j < len(text) and cut[j]:
            j += 1
        inside = [s for s in spans if i <= s.start < j]
        if inside and (piece := text[i:j].strip()):
            reading = "; ".join(dict.fromkeys(s.reading() for s in inside))
            at = len(_graded(text[:i], cut[:i]))
            pieces.append(AddressedPiece(piece, reading, min(at, len(graded))))
        i = j
    return tuple(pieces)


def strip_steps(steps: Sequence[str]) -> tuple[list[str], tuple[AddressedPiece, ...]]:
    """Given steps without their text addressed to the grader (a step left without content is
    dropped), and the pieces cut, each with the step it came from and its offset in the
    graded steps joined by line breaks."""
    if not addressed_spans("\n".join(steps)):  # what a step holds, the steps together hold
        return list(steps), ()
    kept: list[str] = []
    pieces: list[AddressedPiece] = []
    offset = 0
    for i, step in enumerate(steps):
        stripped = strip_text(step)
        graded = stripped.text if has_content(stripped.text) or not stripped.pieces else ""
        pieces += [
            AddressedPiece(p.text, p.reading, offset + min(p.at, len(graded)), i)
            for p in stripped.pieces
        ]
        if graded.strip() or not stripped.pieces:
            kept.append(graded)
            offset += len(graded) + 1
    return kept, tuple(pieces)
