"""An answer's text without its typesetting, for the readings that compare answers in code.

The readings (`scoring.answer_numbers`, `scoring.answer_words`, `scoring.answer_parts`) look at
what an answer says, not at how it was typeset: math delimiters, a single enclosing `\\boxed{}`,
`\\text{}`-style wrappers, spacing commands and sizing commands carry no value.
"""

from __future__ import annotations

import re
from functools import lru_cache

_WRAPPER = re.compile(
    r"\\(?:text|textbf|textit|textrm|textnormal|mathrm|mathbf|mathit|mbox|operatorname)\s*\{([^{}]*)\}"
)
_SPACING = re.compile(r"\\(?:left|right|[bB]igg?[lr]?|displaystyle|textstyle)(?![A-Za-z])|\\[,;:> ]")
_FRAC_VARIANT = re.compile(r"\\[dtc]frac(?![A-Za-z])")
_COMMA_THIN = re.compile(r",\s*\\!\s*")
_DELIMITED = re.compile(r"^(?:\$\$(.*)\$\$|\$(.*)\$|\\\((.*)\\\)|\\\[(.*)\\\])$", re.DOTALL)
_BOXED = re.compile(r"^\\(?:boxed|fbox)\s*\{(.*)\}$", re.DOTALL)
_END_PUNCT = re.compile(r"[\s.。,，;；:：!！]+$")
CJK = re.compile(r"[\u3400-\u9fff]")
MAX_ANSWER_CHARS = 600  # longer texts are solutions, not answers: no reading looks at them


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
    return bool(CJK.search(plain)) or len(re.findall(r"(?<![A-Za-z\\])[A-Za-z]{2,}", plain)) >= 2
