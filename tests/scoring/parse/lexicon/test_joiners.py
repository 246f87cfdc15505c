"""Joiner words and signs by spec: what joins statements, list items, parts and conditions."""

from __future__ import annotations

import re

import pytest

from scoring.parse.lexicon import joiners


@pytest.mark.parametrize(
    ("spec", "text", "found"),
    [
        (joiners.STATEMENTS, "x = 1 or x = 2", ["or"]),
        (joiners.STATEMENTS, "x = 1 或者 x = 2", ["或者"]),  # the longer word first
        (joiners.STATEMENTS, "a > 0 且 b > 0 AND c", ["且", "AND"]),
        (joiners.STATEMENTS, "the band and the orchestra", ["and"]),  # whole words only
        (joiners.LIST, "3 apples, 4 pears and 5 plums", [",", "and"]),
        (joiners.LIST, "甲以及乙", ["以及"]),
        (joiners.LIST, "x = 1 or x = 2", []),  # a list is not joined by "or"
        (joiners.LIST_END, "2 cm.", ["."]),
        (joiners.PARTS, r"x = 1 \qquad y = 2", [r"\qquad"]),
        (joiners.PARTS, "a = 1 或 b = 2", ["或"]),
        (joiners.OPTION_LIST, "A, C and D", [",", "and"]),
        (joiners.OPTION_LIST, "A和C", ["和"]),
        (joiners.OPTION_LIST, "A or C", []),  # a choice between options, not a list of them
        (joiners.BOXED_PARTS, "3 or 4；5", ["or", "；"]),
        (joiners.BOXED_PARTS, "3 并且 4", []),  # 且 joins conditions, not parts
        (joiners.CHOICES, "neither A nor B", ["nor"]),
        (joiners.CHOICES, "A、B", ["、"]),
        (joiners.BLOCKS, r"x = 1 \\ y = 2", ["\\\\"]),
        (joiners.BLOCKS, "x = 2 where y = 3", ["where"]),
        (joiners.BLOCKS, "without x", []),
        (joiners.UNION, r"x < 1 \lor x > 2", [r"\lor"]),
        (joiners.UNION, "x < 1 and x > 0", []),
        (joiners.INTERSECTION, "x > 1 并且 x < 3", ["并且"]),
        (joiners.INTERSECTION, r"x > 1 \land x < 3", [r"\land"]),
    ],
)
def test_joiners(spec: joiners.Joiners, text: str, found: list[str]) -> None:
    assert joiners.joiner_pattern(spec, re.IGNORECASE).findall(text) == found


def test_joiner_case_follows_the_flags() -> None:
    assert joiners.joiner_pattern(joiners.UNION).findall("x < 1 OR x > 2") == []
    assert joiners.joiner_pattern(joiners.UNION, re.IGNORECASE).findall("x < 1 OR x > 2") == ["OR"]
