"""The key a problem is remembered under: its text, normalised so that typing it again with other
spacing (or other LaTeX spacing commands) finds the same memory, while any other text does not.

What is dropped carries no meaning in the statement: Unicode compatibility forms (NFKC: a
full-width `（` is `(`), LaTeX's spacing commands (`\\,` `\\;` `\\:` `\\!` `\\ ` `~` `\\quad`),
`\\left` / `\\right` / `\\big`-sized delimiters (they only size a bracket), the choice of math
delimiters (`\\(...\\)`, `\\[...\\]`, `$$...$$` are `$...$`), and whitespace, except one space
between two ASCII letters or digits ("2 3" is not "23"; "x y" stays two names).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache

from scoring.parse.lexicon import latex

_SPACING = re.compile(r"\\(?:[,;:! ]|q?quad\b|enspace\b|thinspace\b|medspace\b|thickspace\b)|~")
_SIZED = re.compile(
    r"\\(?:" + "|".join((*latex.SIZING, "middle")) + r")\s*(?=[^A-Za-z]|\\[{}|]|\\[lr]?[A-Za-z]+)"
)
_EMPTY_SIZED = re.compile(r"\\(?:" + "|".join(latex.DELIMITER_PAIR) + r")\s*\.")
_DELIMITERS = re.compile(r"\$\$|\\\(|\\\)|\\\[|\\\]")
_SPACE = re.compile(r"\s+")
_KEPT_SPACE = re.compile(r"(?<=[A-Za-z0-9]) (?=[A-Za-z0-9])")


def normalise_problem(text: str) -> str:
    """The problem's text with what carries no meaning removed (see the module docstring)."""
    out = unicodedata.normalize("NFKC", text)
    out = _EMPTY_SIZED.sub("", out)
    out = _SIZED.sub("", out)
    out = _SPACING.sub(" ", out)
    out = _DELIMITERS.sub("$", out)
    out = _SPACE.sub(" ", out).strip()
    kept = _KEPT_SPACE.sub("\0", out)
    return kept.replace(" ", "").replace("\0", " ")


@lru_cache(maxsize=1024)
def problem_key(text: str) -> str:
    """A fixed-length key for the problem (SHA-256 of the normalised text, hex). Cached: the
    service asks for it twice per grade (to read the memory and to store the grade), and a
    class sends one problem many times."""
    return hashlib.sha256(normalise_problem(text).encode("utf-8")).hexdigest()
