"""LaTeX command names matched whole, the answer box, fractions, command names, where a name
starts and function notation."""

from __future__ import annotations

import re

import pytest

from scoring.parse.lexicon import latex


@pytest.mark.parametrize(
    ("names", "symbols", "text", "found"),
    [
        (latex.SIZING, "", r"\left( x \right)", [r"\left", r"\right"]),
        (latex.SIZING, "", r"\Bigl[ x \biggr]", [r"\Bigl", r"\biggr"]),
        (latex.SIZING, "", r"\leftarrow \rightharpoonup", []),  # other names
        (
            (*latex.SIZING, *latex.STYLES),
            ",;:> ",
            r"\displaystyle a\,b\ c",
            [r"\displaystyle", r"\,", "\\ "],
        ),
        (latex.WIDE_SPACES, "", r"x \quad y \qquad z \quadx", [r"\quad", r"\qquad"]),
        (("[dtc]frac",), "", r"\dfrac{1}{2} \frac{1}{3} \tfrac{1}{4}", [r"\dfrac", r"\tfrac"]),
        ((), latex.THIN_SPACES, r"a\!b\:c", [r"\!", r"\:"]),
    ],
)
def test_latex_commands_are_matched_whole(
    names: tuple[str, ...], symbols: str, text: str, found: list[str]
) -> None:
    assert latex.latex_commands(names, symbols).findall(text) == found


@pytest.mark.parametrize(
    ("text", "boxed"),
    [(r"\boxed{7}", True), (r"\fbox {7}", True), (r"\boxedx", False), (r"\box{7}", False)],
)
def test_the_answer_box(text: str, boxed: bool) -> None:
    assert (re.match(latex.BOX + r"\s*\{", text) is not None) is boxed


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


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("x + 1", ["x"]),
        (r"\pi r", ["r"]),  # the `pi` of `\pi` is a command's name
        ("max", []),  # inside a word
        ("2x", ["x"]),  # after a digit a name may start
        ("(y)", ["y"]),
    ],
)
def test_name_start(text: str, found: list[str]) -> None:
    assert re.findall(latex.NAME_START + r"[A-Za-z](?![A-Za-z])", text) == found


@pytest.mark.parametrize(
    ("name", "text", "called"),
    [
        ("f", "f(2) = 5", True),
        ("f", "f (x) = 5", True),
        ("f", "2f = 4", False),  # a product, no argument
        ("f", "elf(2)", False),  # the end of a longer name
        ("f", r"\f(2)", False),  # a command
        ("x.y", "x.y(1)", True),  # the name is literal text, not a regex
        ("x.y", "xzy(1)", False),
    ],
)
def test_function_call(name: str, text: str, called: bool) -> None:
    assert (latex.function_call(name).search(text) is not None) is called
