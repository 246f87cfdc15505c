"""An answer's text cleaned before it is compared: repaired, stripped of typesetting, or sized.

Three clean-ups, for three readers:

- `clean_answer` repairs what breaks answers on their way in (lost or doubled backslashes,
  display variants), before any comparison;
- `bare` is what an answer says, not how it was typeset, for the readings that compare answers in
  code (`scoring.answer.readings`): math delimiters, a single enclosing `\\boxed{}`,
  `\\text{}`-style wrappers, spacing commands and sizing commands carry no value;
- `normalise` and `for_math_verify` prepare the same-text test and math-verify's input.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scoring.parse.lexicon import CJK

_WRAPPER = re.compile(
    r"\\(?:text|textbf|textit|textrm|textnormal|mathrm|mathbf|mathit|mbox|operatorname)\s*\{([^{}]*)\}"
)
_SPACING = re.compile(r"\\(?:left|right|[bB]igg?[lr]?|displaystyle|textstyle)(?![A-Za-z])|\\[,;:> ]")
_FRAC_VARIANT = re.compile(r"\\[dtc]frac(?![A-Za-z])")
_COMMA_THIN = re.compile(r",\s*\\!\s*")
_DELIMITED = re.compile(r"^(?:\$\$(.*)\$\$|\$(.*)\$|\\\((.*)\\\)|\\\[(.*)\\\])$", re.DOTALL)
_BOXED = re.compile(r"^\\(?:boxed|fbox)\s*\{(.*)\}$", re.DOTALL)
_END_PUNCT = re.compile(r"[\s.。,，;；:：!！]+$")
CJK_CHAR = re.compile("[" + CJK + "]")
_CONTROL = {"\x07": "\\a", "\x08": "\\b", "\x0b": "\\v", "\x0c": "\\f"}
_TEXT_SYMBOL = re.compile(r"\\(?:text|mathrm|textrm)\{\s*([^{}A-Za-z]{1,8}|[A-Za-z])\s*\}")
_SPACED_WRAPPER = re.compile(r"\\(text|mathrm|textrm|textbf|mbox)\s+\{")
_SINGLE_BACKSLASH = re.compile(r"(?<!\\)\\(?!\\)")
_DOUBLED_COMMAND = re.compile(r"(?<!\\)\\\\[A-Za-z]")
_SYNONYMS = ((r"\bigcup", r"\cup"), (r"\bigcap", r"\cap"), (r"\dfrac", r"\frac"), (r"\tfrac", r"\frac"),
             ("∞", r"\infty "), ("∪", r"\cup "), ("∩", r"\cap "))
MAX_ANSWER_CHARS = 600  # longer texts are solutions, not answers: no reading looks at them


def clean_answer(answer: str) -> str:
    """Repair what commonly breaks answers before any comparison.

    JSON written without escaping turns `\\frac` into a form feed plus "rac" (likewise `\\b`,
    `\\v`, `\\a`); an answer escaped twice has every backslash doubled (`\\\\sqrt{5}`);
    `\\text {cm}` is `\\text{cm}`; `\\text{3}` wraps a bare symbol; `\\bigcup` and `\\dfrac` are
    display variants; ∞, ∪ and ∩ typed as characters are the commands math-verify reads.
    """
    text = "".join(_CONTROL.get(ch, ch) for ch in answer)
    if _DOUBLED_COMMAND.search(text) and not _SINGLE_BACKSLASH.search(text):
        text = text.replace("\\\\", "\\")
    text = _SPACED_WRAPPER.sub(r"\\\1{", text)
    text = _TEXT_SYMBOL.sub(lambda m: m.group(1), text)
    for variant, canonical in _SYNONYMS:
        text = text.replace(variant, canonical)
    return text


def normalise(answer: str) -> str:
    """The answer without spacing, dollar signs, sizing commands and a closing period: two answers
    whose normal forms are equal are the same text, and no reading need look at them."""
    return re.sub(r"\s+|\$|\\[,;! ]|\\left|\\right", "", clean_answer(answer)).rstrip(".")


def for_math_verify(text: str) -> str:
    """A bare answer on one line: math-verify wraps it in `$...$`, where a newline ends the math
    (a matrix written over several lines would lose all but a fragment)."""
    if any(mark in text.replace("\\$", "") for mark in ("$", "\\(", "\\[", "\\boxed")):
        return text
    return " ".join(text.split())


def too_long(*texts: str) -> bool:
    """Whether any text is too long to be read as an answer (readings stay linear-time cheap)."""
    return any(len(t) > MAX_ANSWER_CHARS for t in texts)


def _unwrap(text: str) -> str:
    """Peel enclosing delimiters and one enclosing box, repeatedly (`$\\boxed{3}$.` -> `3`)."""
    while True:
        stripped = _END_PUNCT.sub("", text.strip())
        m = _DELIMITED.match(stripped) or _BOXED.match(stripped)
        if m is None or not _balanced(next(g for g in m.groups() if g is not None)):
            return stripped
        text = next(g for g in m.groups() if g is not None)


def _balanced(text: str) -> bool:
    depth = 0
    for i, ch in enumerate(text):
        if ch == "{" and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif ch == "}" and (i == 0 or text[i - 1] != "\\"):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


@lru_cache(maxsize=4096)
def bare(text: str) -> str:
    """The answer's content: delimiters, an enclosing box, wrappers and spacing removed.

    `\\text{cm}` keeps its word, `\\dfrac` reads `\\frac`, `11,\\! 111` reads `11,111`, and
    whitespace runs become one space. The result is for reading in code, not for math-verify.
    """
    text = _unwrap(text.replace("\\$", "\u0000"))
    text = _COMMA_THIN.sub(",", text)
    text = _SPACING.sub(" ", text).replace("\\!", "")
    for _ in range(3):
        text, n = _WRAPPER.subn(lambda m: f" {m.group(1)} ", text)
        if not n:
            break
    text = _FRAC_VARIANT.sub(r"\\frac", text)
    text = re.sub(r"\s+", " ", text).replace("\u0000", "\\$").strip()
    return _END_PUNCT.sub("", _unwrap(text)) if text else text


def is_prose(text: str) -> bool:
    """Whether a text is written in words rather than as a formula.

    Chinese characters, or two words of two or more letters, outside any `\\command`.
    """
    plain = re.sub(r"\\[A-Za-z]+", " ", text)
    return bool(CJK_CHAR.search(plain)) or len(re.findall(r"(?<![A-Za-z\\])[A-Za-z]{2,}", plain)) >= 2
