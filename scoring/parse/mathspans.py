"""Where the mathematics is in a text: `$...$`, `$$...$$`, `\\(...\\)`, `\\[...\\]`, environments.

One left-to-right pass with `str.find`, so unclosed delimiters in adversarial text cost linear time
(a lazy regex such as `\\(.*?\\)` is quadratic on them). A `$` that is a currency sign
(`scoring.parse.currency`) neither opens nor closes a span.
"""

from __future__ import annotations

import re

from scoring.parse.currency import currency_dollars

_MAX_UNCLOSED = 32  # distinct unclosed delimiters before the rest is treated as plain text
_OPEN = re.compile(r"\$\$|\\\[|\\\(|\\begin\{([A-Za-z*]+)\}|(?<!\\)\$")


def math_spans(text: str) -> list[tuple[int, int]]:
    """Start and end of every math span, in one left-to-right pass (no regex backtracking)."""
    spans: list[tuple[int, int]] = []
    currency = currency_dollars(text)
    dead: set[str] = set()
    line_end = -1
    i = 0
    while (m := _OPEN.search(text, i)) is not None:
        token = m.group(0)
        if token == "$" and m.start() in currency:
            i = m.end()
            continue
        closer = (
            f"\\end{{{m.group(1)}}}"
            if m.group(1)
            else {"\\[": "\\]", "\\(": "\\)"}.get(token, token)
        )
        end = -1
        if closer not in dead and len(dead) < _MAX_UNCLOSED:
            limit = len(text)
            if token == "$":  # inline `$...$` stays on its line
                if line_end < m.end():
                    line_end = text.find("\n", m.end())
                    line_end = len(text) if line_end == -1 else line_end
                limit = line_end
            end = text.find(closer, m.end(), limit)
            while token == "$" and end > 0 and (text[end - 1] == "\\" or end in currency):
                end = text.find(closer, end + 1, limit)
            if end == -1 and token != "$":
                dead.add(closer)
        if end == -1:
            i = m.end()
            continue
        spans.append((m.start(), end + len(closer)))
        i = end + len(closer)
    return spans


def strip_math(text: str, replacement: str = " ") -> str:
    """The text with every math span replaced, e.g. to look at the prose alone."""
    pieces, last = [], 0
    for start, end in math_spans(text):
        pieces.append(text[last:start])
        pieces.append(replacement)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)
