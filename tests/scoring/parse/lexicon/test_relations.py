"""Relation signs by spec: which signs each reader counts, matched whole (`\\le` is no prefix of
`\\left`)."""

from __future__ import annotations

import pytest

from scoring.parse.lexicon import relations


@pytest.mark.parametrize(
    ("spec", "text", "found"),
    [
        (relations.INEQUALITY, r"x \leq 3", [r"\leq"]),
        (relations.INEQUALITY, "1 < x ≤ 4", ["<", "≤"]),
        (relations.INEQUALITY, r"\left( x \right)", []),  # `\le` is no prefix of `\left`
        (relations.INEQUALITY, "x = 3", []),
        (relations.EQUATION_OR_INEQUALITY, r"x = 3, y \gt 2", ["=", r"\gt"]),
        (relations.CONDITION, r"x \geqslant 2", [r"\geqslant"]),
        (relations.CONDITION, r"x \in (1, 2)", []),
        (relations.SOLUTION_SET_INEQUALITY, r"x \leqslant 1 或 x \geq 2", [r"\leqslant", r"\geq"]),
        (relations.SOLUTION_SET_INEQUALITY, r"x \lt 1", []),  # not among a solution set's signs
        (relations.CHAIN, "x := 2", [":="]),
        (relations.CHAIN, "a <= b >= c", ["<=", ">="]),
        (relations.CHAIN, "x != 2", ["!="]),
        (relations.CHAIN, "5!=120", ["="]),  # `!` of a factorial, then equality
        (relations.CHAIN, r"a \equiv 1 \pmod{3}", [r"\equiv"]),
        (relations.CHAIN, r"A \subseteq B \subset C", [r"\subseteq", r"\subset"]),
        (relations.CHAIN, r"x \in S, \sin x", [r"\in"]),  # `\in` is no prefix of `\sin`
        (relations.CHAIN, "x ≈ 3.14 ≃ π", ["≈", "≃"]),
        (relations.STATED, r"x \le 2, y \leq 3 = z", [r"\le", "="]),  # `\leq` is not counted
        (relations.STATED, "a ≠ b ≈ c", ["≠", "≈"]),
        (relations.IN_SPAN, r"3 \pm 1 = 4", [r"\pm", "="]),
        (relations.IN_SPAN, "3 × 4", []),
        (relations.AFTER_VALUE, r"2, 3; x \cup y", [",", ";", r"\cup"]),
        (relations.AFTER_VALUE, r"\pi", []),
        (relations.BOUND, "a>=2", [">="]),
        (relations.BOUND, r"1 \le x < 4", [r"\le", "<"]),
    ],
)
def test_relation_signs(spec: relations.RelationSigns, text: str, found: list[str]) -> None:
    assert relations.relation_pattern(spec).findall(text) == found


def test_relation_patterns_are_built_once_per_spec() -> None:
    spec = relations.RelationSigns(("le",), ("<",))
    assert relations.relation_pattern(spec) is relations.relation_pattern(
        relations.RelationSigns(("le",), ("<",))
    )
    assert relations.relation_alternatives(relations.RelationSigns()) == ""
