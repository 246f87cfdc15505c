"""LaTeX command names matched whole, and the answer box."""

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
