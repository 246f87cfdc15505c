"""Text as a reader sees it, for finding words that were disguised: one folded copy of a text,
each of its characters traced back to where it stands in the original.

A word can be hidden from a pattern and still be read by a person or a model: split by
characters that print as nothing (zero-width space, joiners, soft hyphen, direction marks, tag
characters, variation selectors), written in look-alike letters (Cyrillic `о` for Latin `o`,
fullwidth `ｇ`, mathematical bold `𝐠`), dressed in markup that renders away (LaTeX `\\text{...}`,
markdown `**...**`, HTML comments and tags). `fold` undoes each of these: compatibility
decomposition (Unicode NFKD) maps fullwidth, circled and mathematical letters to plain ones;
combining marks and format characters are dropped; Cyrillic and Greek letters that print like
Latin ones become those (Unicode's confusables, the lower-case letters that matter for English
words); case is folded; markup becomes a space; runs of white space become one (a line break, if
they hold one: where lines start is kept). A match in the
folded text maps back to the original span through `Folded.span`, so what is cut from the
original is exactly what was read.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

# Letters of other scripts that print like Latin ones (after case folding).
_LOOKALIKE = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "е": "e",
        "ё": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "і": "i",
        "ї": "i",
        "ј": "j",
        "ԁ": "d",
        "ԛ": "q",
        "ԝ": "w",
        "ɡ": "g",
        "һ": "h",
        "ӏ": "l",
        "ո": "n",
        "ս": "u",
        # Greek
        "α": "a",
        "ο": "o",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "ε": "e",
        # angle brackets and their look-alikes, read as the ASCII ones
        "‹": "<",
        "›": ">",
        "〈": "<",
        "〉": ">",
        "⟨": "<",
        "⟩": ">",
        "«": "<",
        "»": ">",
        "ᐸ": "<",
        "ᐳ": ">",
    }
)
# Characters that are not format characters by category but print as nothing.
_BLANK = frozenset("\u034f\u115f\u1160\u3164\uffa0\u180e")

# Markup that renders away, read as a space: LaTeX text and font commands with their braces,
# spacing commands, math delimiters; markdown emphasis, code, headings and quotes; HTML
# comments and tags.
_MARKUP = re.compile(
    r"\\(?:text|textbf|textit|textrm|textsf|texttt|textup|textnormal|emph|mbox|hbox|mathrm|"
    r"mathbf|mathit|mathsf|mathtt|operatorname|underline|boldsymbol|bm)\s*\{"
    r"|\\(?:quad|qquad|[ ,;:!>])|\\[()\[\]]|[{}$~*_`#|]"
    r"|<!--|-->|</?[a-z][a-z0-9]*(?:\s[^<>]{0,80})?/?>"
    r"|(?:^|(?<=\n))\s*>+"
)
# Runs of white space that folding changes (a single space or line break stays as it is).
_SPACES = re.compile(r"\s{2,}|[^\S \n]")
# Characters folding leaves as they are (bar case): ASCII and the common CJK ideographs.
_PLAIN_RUN = re.compile(r"[\x00-\x7f\u4e00-\u9fff]+")


@dataclass(frozen=True)
class Folded:
    """The folded text and, for each of its characters, the index of the original character it
    came from."""

    text: str
    origin: tuple[int, ...]
    length: int  # of the original

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span [a, b) that folded characters [start, end) were read from."""
        if start >= end:
            point = self.origin[start] if start < len(self.origin) else self.length
            return point, point
        return self.origin[start], self.origin[end - 1] + 1


def _fold_char(char: str) -> str:
    if char in _BLANK:
        return ""
    out = []
    for part in unicodedata.normalize("NFKD", char):
        if unicodedata.category(part) in ("Mn", "Me", "Cf"):
            continue
        out.append(part)
    return "".join(out).casefold().translate(_LOOKALIKE)


@lru_cache(maxsize=4096)
def _folded_char(char: str) -> str:
    return _fold_char(char)


def _fold_chars(text: str, start: int, end: int, chars: list[str], origin: list[int]) -> None:
    for i in range(start, end):
        folded = _folded_char(text[i])
        chars.append(folded)
        origin.extend([i] * len(folded))


def _substitute(
    text: str, origin: list[int], pattern: re.Pattern[str], replace: Callable[[re.Match[str]], str]
) -> tuple[str, list[int]]:
    """`pattern.sub(replace, text)` keeping the origins: a replacement's characters take the
    origin of the match's first character."""
    parts: list[str] = []
    kept: list[int] = []
    last = 0
    for match in pattern.finditer(text):
        parts.append(text[last : match.start()])
        kept.extend(origin[last : match.start()])
        new = replace(match)
        parts.append(new)
        at = origin[match.start()] if match.start() < len(origin) else (origin[-1] if origin else 0)
        kept.extend([at] * len(new))
        last = match.end()
    parts.append(text[last:])
    kept.extend(origin[last:])
    return "".join(parts), kept


def _space(match: re.Match[str]) -> str:
    return "\n" if "\n" in match.group() else " "


def fold_text(text: str, markup: bool = True) -> str:
    """`fold(text, markup).text`, without tracing origins: the quick reading for a text in which
    nothing may be found."""
    parts: list[str] = []
    at = 0
    for run in _PLAIN_RUN.finditer(text):
        parts.extend(_folded_char(c) for c in text[at : run.start()])
        parts.append(run.group().lower())
        at = run.end()
    parts.extend(_folded_char(c) for c in text[at:])
    joined = "".join(parts)
    if markup:
        joined = _MARKUP.sub(" ", joined)
    return _SPACES.sub(_space, joined)


def fold(text: str, markup: bool = True) -> Folded:
    """The text with disguises undone (see the module's docstring), lower-cased, markup read as
    a space (unless `markup` is False: tags are then kept, to be found) and white space
    collapsed, with each character's origin."""
    chars: list[str] = []
    origin: list[int] = []
    at = 0
    for run in _PLAIN_RUN.finditer(text):
        _fold_chars(text, at, run.start(), chars, origin)
        chars.append(run.group().lower())
        origin.extend(range(run.start(), run.end()))
        at = run.end()
    _fold_chars(text, at, len(text), chars, origin)
    joined = "".join(chars)
    if markup:
        joined, origin = _substitute(joined, origin, _MARKUP, lambda m: " ")
    joined, origin = _substitute(joined, origin, _SPACES, _space)
    return Folded(joined, tuple(origin), len(text))
