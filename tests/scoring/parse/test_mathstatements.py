"""Statements and relation chains in a step: delimited spans first, then plain-text runs that
look like arithmetic; prose, ratios and currency are never read as math."""

from __future__ import annotations

import pytest

from scoring.parse.mathstatements import (
    MAX_SIDES,
    Statement,
    find_statements,
    split_chain,
    split_statements,
)


@pytest.mark.parametrize(
    ("step", "found"),
    [
        (
            "So $3 + 4 = 7$ and $x = 2$.",
            [("3 + 4 = 7", "$3 + 4 = 7$"), ("x = 2", "$x = 2$")],
        ),
        ("We have 3 + 4 = 7 apples.", [("3 + 4 = 7", "3 + 4 = 7")]),  # a plain-text run
        ("1) 3 + 4 = 7", [("3 + 4 = 7", "3 + 4 = 7")]),  # the numbering is not a number
        ("x=$1250$", [("x = 1250", "$x = 1250$")]),  # a name before a span: one relation
        ("3 + 4 ≈ 7.1", [("3 + 4 ≈ 7.1", "3 + 4 ≈ 7.1")]),
        (
            "$x = 1, y = 2$",
            [("x = 1", "$x = 1, y = 2$"), ("y = 2", "$x = 1, y = 2$")],
        ),
    ],
)
def test_find_statements(step, found):
    assert find_statements(step) == [Statement(text, source) for text, source in found]


@pytest.mark.parametrize(
    "step",
    [
        "The ratio 3:4 = 6:8 holds.",  # a ratio, not a division
        "pay $5 and $6 for 11",  # dollars as currency
        "The answer is big.",
        "",
    ],
)
def test_prose_ratios_and_currency_are_not_statements(step):
    assert find_statements(step) == []


@pytest.mark.parametrize(
    ("math", "pieces"),
    [
        (r"x = 1, y = 2 \Rightarrow z = 3", ["x = 1", "y = 2", "z = 3"]),
        (r"x = 1 \quad y = 2", ["x = 1", "y = 2"]),
        ("f(1, 2) = 3", ["f(1, 2) = 3"]),  # a comma inside brackets stays
        ("1,000 + 2,000 = 3,000", ["1,000 + 2,000 = 3,000"]),  # thousands separators stay
        ("  ", []),
    ],
)
def test_split_statements(math, pieces):
    assert split_statements(math) == pieces


@pytest.mark.parametrize(
    ("statement", "chain"),
    [
        ("a = b < c <= d", [("a", "=", "b"), ("b", "<", "c"), ("c", "<=", "d")]),
        (r"a \equiv 1 = b", [("a", None, "1"), ("1", "=", "b")]),  # an opaque relation
        ("f(x = 1) = 2", [("f(x = 1)", "=", "2")]),  # a sign inside brackets is not a link
        ("= 3", []),  # a side is missing
        ("x", []),
    ],
)
def test_split_chain(statement, chain):
    assert split_chain(statement) == chain


def test_a_chain_too_long_to_be_a_relation_is_dropped():
    assert split_chain(" = ".join(["1"] * (MAX_SIDES + 2))) == []
    assert len(split_chain(" = ".join(["1"] * MAX_SIDES))) == MAX_SIDES - 1
