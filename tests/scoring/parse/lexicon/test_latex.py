"""LaTeX commands: fractions and command names, as tables of cases."""

from __future__ import annotations

import re

import pytest

from scoring.parse.lexicon import latex


@pytest.mark.parametrize(
    ("command", "text", "found"),
    [
        (latex.FRAC, r"\frac", True),
        (latex.FRAC, r"\dfrac", True),
        (latex.FRAC, r"\tfrac", True),
        (latex.FRAC, r"\cfrac", False),  # a continued fraction's step
        (latex.ANY_FRAC, r"\cfrac", True),
        (latex.ANY_FRAC, r"\dfrac", True),
        (latex.FRAC, "frac", False),  # no backslash
    ],
)
def test_fraction_commands(command: str, text: str, found: bool) -> None:
    assert (re.fullmatch(command, text) is not None) is found


@pytest.mark.parametrize(
    ("numerator", "denominator", "command", "text", "groups"),
    [
        (r"(\d+)", r"(\d+)", latex.FRAC, r"\frac{3}{4}", ("3", "4")),
        (r"(\d+)", r"(\d+)", latex.FRAC, r"\dfrac {3} {4}", ("3", "4")),
        (r"(\d+)", r"(\d+)", latex.FRAC, r"\frac{x}{4}", None),
        (r"(\d+)", r"(\d+)", latex.FRAC, r"\frac{ 3 }{4}", None),  # no space inside the braces
        (r"\s*(\d+)\s*", r"\s*(\d+)\s*", latex.FRAC, r"\frac{ 3 }{ 4 }", ("3", "4")),
        (r"([^{}]*)", r"([^{}]*)", r"\\frac", r"\frac{a+b}{2}", ("a+b", "2")),
        (r"([^{}]*)", r"([^{}]*)", r"\\frac", r"\dfrac{a+b}{2}", None),  # `\frac` alone
        (r"([^{}]+)", r"([^{}]+)", latex.ANY_FRAC, r"\cfrac{1}{2}", ("1", "2")),
    ],
)
def test_fraction(
    numerator: str, denominator: str, command: str, text: str, groups: tuple[str, ...] | None
) -> None:
    m = re.fullmatch(latex.fraction(numerator, denominator, command), text)
    assert (m.groups() if m else None) == groups


@pytest.mark.parametrize(
    ("text", "names"),
    [
        (r"\frac{1}{2} + \alpha", [r"\frac", r"\alpha"]),
        (r"\leftarrow", [r"\leftarrow"]),  # the longest run of letters
        (r"\, \; \\", []),  # one-character commands and a line break have no name
        ("x + 1", []),
    ],
)
def test_command_name(text: str, names: list[str]) -> None:
    assert latex.COMMAND_NAME.findall(text) == names
