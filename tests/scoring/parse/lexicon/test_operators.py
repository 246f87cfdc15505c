"""Arithmetic operators: which signs and commands each spec finds, as a table of cases."""

from __future__ import annotations

import pytest

from scoring.parse.lexicon import operators as ops


@pytest.mark.parametrize(
    ("spec", "text", "found"),
    [
        (ops.ARITHMETIC, "52 + 24", ["+"]),
        (ops.ARITHMETIC, r"3 \times 4 \cdot 2 \div 1", [r"\times", r"\cdot", r"\div"]),
        (ops.ARITHMETIC, "6 × 2 ÷ 3 - 1", ["×", "÷", "-"]),
        (ops.ARITHMETIC, "2^3", []),  # a power is no arithmetic sign here
        (ops.ARITHMETIC, r"\frac{1}{2}", []),
        (ops.PROSE_ARITHMETIC, r"2^3 + \frac{1}{2}", ["^", "+", r"\frac"]),
        (ops.REWRITABLE, r"\sqrt{x} * 2", [r"\sqrt", "*"]),
        (ops.REWRITABLE, "6 × 2", []),  # typed multiplication signs are not among its signs
        (ops.REWRITABLE, r"\dfrac{1}{2}", []),  # `\frac` by name: `\dfrac` is another name
        (ops.COMPUTING, r"\dfrac{1}{2}", [r"\dfrac"]),
        (ops.COMPUTING, "3 · 4", ["·"]),
        (ops.COMPUTING, r"\timesx", [r"\times"]),  # matched as written, with no boundary
        (ops.COMPUTING, "x = 12", []),
    ],
)
def test_operator_pattern(spec: ops.Operators, text: str, found: list[str]) -> None:
    assert [m.group() for m in ops.operator_pattern(spec).finditer(text)] == found


def test_signs_are_escaped_in_their_class() -> None:
    # `-` and `^` are literal signs, not a range or a negation of the class
    pattern = ops.operator_pattern(ops.Operators(signs="^-+"))
    assert pattern.findall("a^b-c,d") == ["^", "-"]


def test_a_spec_without_commands_finds_signs_only() -> None:
    assert ops.operator_alternatives(ops.Operators(signs="+")) == r"[\+]"
    assert ops.operator_alternatives(ops.Operators(commands=("times",))) == r"\\(?:times)"
