"""Numerals in a stated base: which bases a text names, and steps read in them."""

from __future__ import annotations

import pytest

from scoring.parse.bases import (
    read_in_base,
    stated_bases,
    with_plain_subscripts,
    with_prefixed_numerals,
)


@pytest.mark.parametrize(
    ("text", "bases"),
    [
        ("convert 25 to binary", (2,)),
        ("in base 5 and base-7", (5, 7)),
        ("二进制与十六进制", (2, 16)),
        ("12进制", (12,)),
        ("$1556_7 + 10_{(3)}$", (7, 3)),
        ("base 10 only", ()),
        ("$a_2 + x_3 = 5$", ()),  # indices, not bases
        ("the base of the triangle", ()),
        ("二进制：$1010(2)$ 与 $12(8)$", (2, 8)),  # suffixes count where a base is named
        ("$3(2) = 6$", ()),  # elsewhere a product
    ],
)
def test_stated_bases(text: str, bases: tuple[int, ...]) -> None:
    assert stated_bases(text) == bases


def test_numerals_are_read_in_a_base_but_exponents_and_indices_stay() -> None:
    assert read_in_base("3 = 0011", 2) == "3 = 3"
    assert read_in_base("2^{10} + 110", 2) == "2^{10} + 6"
    assert read_in_base("a_{11} + 11_3", 2) is None
    assert read_in_base("7 + 8", 2) is None  # single digits mean the same
    assert read_in_base("123", 3) is None  # 3 is not a base-3 digit
    assert read_in_base("0.11", 2) == "(3/4)"
    assert read_in_base("1010(2) + 7(10)", 2, (2,)) == "10 + 7"
    assert read_in_base("11(3)", 2, (2,)) is None  # an unstated suffix: a product
    assert with_prefixed_numerals("0b101 + 0x1f + 0o17 + 10x3") == "5 + 31 + 15 + 10x3"
    assert with_plain_subscripts("(101)_2 + 11_{(2)}") == "101_2 + 11_{2}"
