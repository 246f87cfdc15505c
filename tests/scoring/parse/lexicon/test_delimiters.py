"""Math delimiters: the pairs that wrap math, and the signs alone, as tables of cases."""

from __future__ import annotations

import re

import pytest

from scoring.parse.lexicon import delimiters

WHOLE = re.compile(r"^(?:" + delimiters.wrapped_math(".*") + r")$", re.DOTALL)
LEADING = re.compile(r"\s*(?:" + delimiters.wrapped_math(".+?", escaped_dollar=True) + ")")


def _math(m: re.Match[str] | None) -> str | None:
    return None if m is None else next(g for g in m.groups() if g is not None)


@pytest.mark.parametrize(
    ("text", "math"),
    [
        ("$x = 3$", "x = 3"),
        ("$$x = 3$$", "x = 3"),  # display, not an empty inline span
        (r"\(x = 3\)", "x = 3"),
        (r"\[x = 3\]", "x = 3"),
        ("$a$ and $b$", "a$ and $b"),  # the whole text, first sign to last
        ("$$\nx\n$$", "\nx\n"),
        ("x = 3", None),
        (r"\(x = 3\]", None),  # an opening sign closed by another pair's sign
        ("$x = 3", None),
    ],
)
def test_wrapped_math_whole_text(text: str, math: str | None) -> None:
    assert _math(WHOLE.match(text)) == math


@pytest.mark.parametrize(
    ("text", "math"),
    [
        ("$5$ apples, $6$ pears", "5"),  # the shortest span
        (r"  \(x\) is 2", "x"),
        (r"$\$5 + 1$ left", r"\$5 + 1"),  # an escaped dollar does not close the span
        ("$$", None),  # nothing between the signs
        ("so $x$", None),  # math must lead
    ],
)
def test_wrapped_math_leading_span(text: str, math: str | None) -> None:
    assert _math(LEADING.match(text)) == math


def test_dollar_closes_after_backslash_unless_escaped() -> None:
    plain = re.compile(delimiters.wrapped_math(".+?"))
    assert _math(plain.match(r"$a\$b$")) == "a\\"
    assert _math(LEADING.match(r"$a\$b$")) == r"a\$b"


@pytest.mark.parametrize(
    ("text", "signs"),
    [
        ("$x$", ["$", "$"]),
        ("$$x$$", ["$$", "$$"]),  # a display sign is one token
        ("$$$", ["$$", "$"]),
        (r"\(x\) and \[y\]", [r"\(", r"\)", r"\[", r"\]"]),
        (r"\{x\}", []),  # braces, not delimiters
        ("(x) [y]", []),
    ],
)
def test_delimiter_sign(text: str, signs: list[str]) -> None:
    assert re.findall(delimiters.DELIMITER_SIGN, text) == signs


@pytest.mark.parametrize(
    ("text", "inner"),
    [
        ("$x = 3$", "x = 3"),
        ("$$x$$", "x"),
        (r"\(x + 1\)", "x + 1"),
        (r"\[x\]", "x"),
        (r"x \) y", r"x \) y"),  # a closing sign inside the text stays
        ("a $b$ c", "a $b$ c"),
    ],
)
def test_delimiters_at_edges(text: str, inner: str) -> None:
    assert re.sub(delimiters.DELIMITERS_AT_EDGES, "", text) == inner
