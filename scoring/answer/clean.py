"""An answer's text cleaned before it is compared: repaired, stripped of typesetting, or sized.

Three clean-ups, for three readers:

- `clean_answer` repairs what breaks answers on their way in (lost or doubled backslashes,
  display variants, markdown emphasis, a number written in words), before any comparison;
- `bare` is what an answer says, not how it was typeset, for the readings that compare answers in
  code (`scoring.answer.readings`): math delimiters, a single enclosing `\\boxed{}`,
  `\\text{}`-style wrappers, spacing commands and sizing commands carry no value;
- `normalise` and `for_math_verify` prepare the same-text test and math-verify's input.
"""

from __future__ import annotations

import re
from functools import lru_cache

from scoring.parse.lexicon import (
    CJK_CHAR,
    PLAIN_PI,
    chinese_clock_times,
    chinese_fractions,
    delimiters,
    latex,
    latex_roots,
    latin_words,
    plain_fractions,
    punctuation,
)
from scoring.parse.mathspans import math_spans
from scoring.parse.number_words import number_in_words

_WRAPPER = re.compile(
    r"\\(?:text|textbf|textit|textrm|textnormal|mathrm|mathbf|mathit|mbox|operatorname)\s*\{([^{}]*)\}"
)
_SPACING = latex.latex_commands((*latex.SIZING, *latex.STYLES), ",;:> ")
_FRAC_VARIANT = latex.latex_commands(("[dtc]frac",))
_COMMA_THIN = re.compile(r",\s*\\!\s*")
_DELIMITED = re.compile(r"^(?:" + delimiters.wrapped_math(".*") + r")$", re.DOTALL)
_BOXED = re.compile(r"^" + latex.BOX + r"\s*\{(.*)\}$", re.DOTALL)
_END_PUNCT = punctuation.trailing_marks(
    punctuation.FULL_STOPS,
    punctuation.COMMAS,
    punctuation.SEMICOLONS,
    punctuation.COLONS,
    punctuation.EXCLAMATIONS,
)
_CONTROL = {"\x07": "\\a", "\x08": "\\b", "\x0b": "\\v", "\x0c": "\\f"}
_CONTROL_TABLE = str.maketrans(_CONTROL)
_TEXT_SYMBOL = re.compile(r"\\(?:text|mathrm|textrm)\{\s*([^{}A-Za-z]{1,8}|[A-Za-z])\s*\}")
_SPACED_WRAPPER = re.compile(r"\\(text|mathrm|textrm|textbf|mbox)\s+\{")
# What `normalise` drops: spaces, dollar signs, thin spaces and the sizing pair, wherever they
# stand (`\leftarrow` loses its `\left` too).
_LAYOUT = re.compile(r"\s+|\$|\\[,;! ]|\\(?:" + "|".join(latex.DELIMITER_PAIR) + ")")
_SINGLE_BACKSLASH = re.compile(r"(?<!\\)\\(?!\\)")
_DOUBLED_COMMAND = re.compile(r"(?<!\\)\\\\[A-Za-z]")
_SYNONYMS = (
    (r"\bigcup", r"\cup"),
    (r"\bigcap", r"\cap"),
    (r"\dfrac", r"\frac"),
    (r"\tfrac", r"\frac"),
    ("∞", r"\infty "),
    ("∪", r"\cup "),
    ("∩", r"\cap "),
    ("−", "-"),
)
MAX_ANSWER_CHARS = 600  # longer texts are solutions, not answers: no reading looks at them
# Markdown emphasis (`**64.80**`, `__5__`, `*x = 3*`, `_5_`), CommonMark's flanking rule
# simplified: a run opens where text follows it and no word character or backslash stands
# before it, and closes where text stands before it and no word character follows; an
# underscore after `}` or before `{` is a subscript. So `2*3*4`, `x**2`, `x_1`, `a_{n}`,
# `\text{D}_{\text{e}}` and `\_` are not emphasis; a pair never spans lines, and math spans
# are not read (`without_emphasis`).
_EMPHASIS = tuple(
    re.compile(p)
    for p in (
        r"(?<![\w*\\])(\*\*\*?)(?=\S)(.+?)(?<=\S)\1(?![\w*])",
        r"(?<![\w_\\}])(___?)(?=[^\s{])(.+?)(?<=[^\s}])\1(?![\w_{])",
        r"(?<![\w*\\])(\*)(?=[^\s*])(.+?)(?<=[^\s*\\])\1(?![\w*])",
        r"(?<![\w_\\}])(_)(?=[^\s_{])(.+?)(?<=[^\s_\\}])\1(?![\w_{])",
    )
)


# Function names and constants as plain text types them. Longest first, so that `arcsin` is not
# read as `arc` then `sin`, nor `sinh` as `sin` then `h`.
_FUNCTIONS = (
    "arcsin",
    "arccos",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "sin",
    "cos",
    "tan",
    "cot",
    "sec",
    "csc",
    "exp",
    "log",
    "ln",
)
# A name is a whole token (no letter or backslash before it), followed by a non-letter, or by one
# letter that is its argument (`sinx`, `lnx`, `cosA`) and then a non-letter.
_PLAIN_FUNCTION = re.compile(
    latex.NAME_START + "(" + "|".join(_FUNCTIONS) + r")(?=[^A-Za-z]|[A-Za-z](?![A-Za-z])|$)"
)
_PLAIN_PI = re.compile(PLAIN_PI)
_PLAIN_SQRT = re.compile(
    latex.NAME_START + r"sqrt\s*(?:\(([^()]*)\)|(\d+(?:\.\d+)?|[A-Za-z](?![A-Za-z])))"
)
_PLAIN_LOG_BASE = re.compile(latex.NAME_START + r"log(\d+)\s*\(")  # log2(8): base after the name
_ENGLISH = frozenset({"cost", "sine", "sins", "logs", "tans", "secs", "cots"})


def latex_names(text: str) -> str:
    """Plain-text function names and constants as the LaTeX commands they stand for: `ln2` is
    `\\ln 2`, `pi/4` is `\\pi/4`, `sqrt(3)/2` and `sqrt3/2` are `\\sqrt{3}/2`, `sinx` is
    `\\sin x`, `log2(8)` is `\\log_{2}(8)`. Typed without a backslash, as students and plain-text
    outputs write them, LaTeX reads a name as a product of letters (`ln2` is l times n times 2),
    so `ln2` would be unequal to `\\ln 2`. A name inside a longer word is left alone (`using`,
    `pins`), as are a few English words a name and one letter spell (`cost`, `sine`)."""
    if not any(name in text for name in ("pi", "sqrt", *_FUNCTIONS)):
        return text
    words = set(re.findall(r"[A-Za-z]+", text))
    if words & _ENGLISH:
        return text
    text = _PLAIN_SQRT.sub(lambda m: "\\sqrt{" + (m.group(1) or m.group(2)) + "}", text)
    text = _PLAIN_LOG_BASE.sub(lambda m: "\\log_{" + m.group(1) + "}(", text)
    text = _PLAIN_FUNCTION.sub(lambda m: _command(m.group(1), m.string, m.end()), text)
    return _PLAIN_PI.sub(lambda m: _command("pi", m.string, m.end()), text)


def _command(name: str, text: str, end: int) -> str:
    """`\\name`, spaced from a letter or digit that follows (`\\ln 2`, not `\\ln2`)."""
    return "\\" + name + (" " if end < len(text) and text[end].isalnum() else "")


def without_emphasis(text: str) -> str:
    """`= **$64.80**` -> `= $64.80`: markdown emphasis, as chat models and students type an
    answer, is typesetting, not part of it (the rule is at `_EMPHASIS`). Math spans are masked
    while the pairs are found: inside them `*` and `_` are LaTeX's."""
    if "*" not in text and "_" not in text:
        return text
    masked = _blanked(text, math_spans(text), "\u0001")
    dropped: list[tuple[int, int]] = []
    for pattern in _EMPHASIS:
        found = [
            cut
            for m in pattern.finditer(masked)
            for cut in ((m.start(1), m.end(1)), (m.end(2), m.end()))
        ]
        if found:
            dropped += found
            masked = _blanked(masked, found, "\u0002")
    if not dropped:
        return text
    kept, at = [], 0
    for start, end in sorted(dropped):
        kept.append(text[at:start])
        at = end
    return "".join(kept) + text[at:]


def _blanked(text: str, cuts: list[tuple[int, int]], mark: str) -> str:
    """`text` with each (start, end) range, in any order and not overlapping, written over by
    `mark` (the same length, so positions keep their meaning)."""
    pieces, at = [], 0
    for start, end in sorted(cuts):
        pieces += [text[at:start], mark * (end - start)]
        at = end
    return "".join(pieces) + text[at:]


@lru_cache(maxsize=64)
def readable(text: str) -> str:
    """A solution's text as the answer readers read it: the LaTeX commands that JSON written
    without escaping turned into control characters (`\\frac` into a form feed and "rac", which
    also ends a line for `str.splitlines`) written back, and markdown emphasis dropped. Cached:
    a grade reads one solution for its marked answer and again for its candidates."""
    return without_emphasis(text.translate(_CONTROL_TABLE))


def clean_answer(answer: str) -> str:
    """Repair what commonly breaks answers before any comparison.

    JSON written without escaping turns `\\frac` into a form feed plus "rac" (likewise `\\b`,
    `\\v`, `\\a`); an answer escaped twice has every backslash doubled (`\\\\sqrt{5}`);
    `\\text {cm}` is `\\text{cm}`; `\\text{3}` wraps a bare symbol; `\\bigcup` and `\\dfrac` are
    display variants; ∞, ∪ and ∩ typed as characters are the commands math-verify reads, the
    minus sign (U+2212) is `-`, and so
    are root signs (`latex_roots`: `5√2`), fraction characters are digits (`plain_fractions`:
    `2½` is `2 1/2`), fractions in Chinese words are digits (`chinese_fractions`: `四分之三` is
    `3/4`), clock times in Chinese are `H:MM` (`chinese_clock_times`: `10时15分`), and function
    names and π typed as plain text (`latex_names`: `ln2`, `pi/4`, `sqrt(3)`); markdown emphasis
    is dropped (`without_emphasis`), and an answer that is a number in words is that number in
    digits (`five`, `三百零五`; `scoring.parse.number_words`).
    """
    if (in_words := number_in_words(answer)) is not None:
        return str(in_words)
    text = readable(answer)
    if _DOUBLED_COMMAND.search(text) and not _SINGLE_BACKSLASH.search(text):
        text = text.replace("\\\\", "\\")
    text = _SPACED_WRAPPER.sub(r"\\\1{", text)
    text = _TEXT_SYMBOL.sub(lambda m: m.group(1), text)
    for variant, canonical in _SYNONYMS:
        text = text.replace(variant, canonical)
    return latex_names(latex_roots(plain_fractions(chinese_clock_times(chinese_fractions(text)))))


def normalise(answer: str) -> str:
    """The answer without spacing, dollar signs, sizing commands and a closing period: two answers
    whose normal forms are equal are the same text, and no reading need look at them."""
    return _LAYOUT.sub("", clean_answer(answer)).rstrip(".")


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
    plain = latex.COMMAND_NAME.sub(" ", text)
    return bool(CJK_CHAR.search(plain)) or len(latin_words(2).findall(plain)) >= 2
