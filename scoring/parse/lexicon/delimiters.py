"""Math delimiters: the signs that open and close math in Markdown and LaTeX text.

`$$...$$` and `\\[...\\]` set math apart on its own line, `$...$` and `\\(...\\)` inline. Every
reader that takes the math out of a wrapped answer, a step's span or a leading formula needs the
same four pairs; what differs is what a pair may hold (all of the rest, or the shortest span) and
whether `\\$` inside `$...$` is an escaped dollar sign rather than the span's end. The pairs are a
table; the builder composes them into one alternation.
"""

from __future__ import annotations

import re

# (opening, closing) signs as written, display before inline: `$$` before its prefix `$`.
MATH_DELIMITERS: tuple[tuple[str, str], ...] = (
    ("$$", "$$"),
    ("$", "$"),
    ("\\(", "\\)"),
    ("\\[", "\\]"),
)


def wrapped_math(body: str, *, escaped_dollar: bool = False) -> str:
    """Every pair of `MATH_DELIMITERS` around one capturing group of `body` (`.*`, `.+?`), as one
    regex alternation (no group around it), in table order: the math is the one group that is not
    None. With `escaped_dollar`, a `$` after a backslash does not close `$...$`."""
    parts = []
    for opening, closing in MATH_DELIMITERS:
        close = re.escape(closing)
        if escaped_dollar and closing == "$":
            close = r"(?<!\\)" + close
        parts.append(re.escape(opening) + "(" + body + ")" + close)
    return "|".join(parts)


# Any opening or closing sign of `MATH_DELIMITERS`, one token each (`$$` before its prefix `$`).
DELIMITER_SIGN = "|".join(
    re.escape(sign) for sign in dict.fromkeys(s for pair in MATH_DELIMITERS for s in pair)
)
_LATEX_PAIRS = [pair for pair in MATH_DELIMITERS if not pair[0].startswith("$")]
# The delimiters left at the edges of a text: a run of `$` at either end, a LaTeX opening sign
# at its start, a closing sign at its end.
DELIMITERS_AT_EDGES = (
    r"^(?:\$+|"
    + "|".join(re.escape(opening) for opening, _ in _LATEX_PAIRS)
    + r")|(?:\$+|"
    + "|".join(re.escape(closing) for _, closing in _LATEX_PAIRS)
    + r")$"
)
