"""Back-substitution: the values a solution ends with must satisfy the equations it wrote earlier.

If a solution concludes `y = 6` and an earlier step says `7y^2 = 72`, the two cannot both hold.
Forward checks (`equations.check_against`) only see values established before a step; an error
in a derivation that still reaches its value (ReasonEval's "random number" and "random operation"
perturbations) shows only when the later values are substituted back. Variables are reused
across cases, so only values a solution states once, outside conditional or tentative steps, are
used, only equations that mention nothing but those variables are decided, and a step that also
involves a variable given several values (one case of several, perhaps abandoned) is skipped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.equations import (
    Relation,
    check_relation,
    extract_relations,
    format_signed,
    single_value,
)
from scoring.parse.lexicon import latex
from scoring.parse.numeric import Value
from scoring.parse.tentative import is_tentative


@dataclass(frozen=True)
class Substitution:
    """A step whose equation fails when the solution's own final values are put back into it."""

    step: int
    detail: str


def _stated_values(
    relations: Sequence[Sequence[Relation]], steps: Sequence[str]
) -> dict[str, set[Value]]:
    seen: dict[str, set[Value]] = {}
    for rels, text in zip(relations, steps, strict=True):
        if is_tentative(text):
            continue
        for rel in rels:
            if (found := single_value(rel)) is not None:
                seen.setdefault(found[0], set()).add(found[1])
    return seen


def _names(rel: Relation) -> set[str]:
    exprs = (rel.lhs_expr, rel.rhs_expr)
    return {s.name for e in exprs if e is not None for s in e.free_symbols}


def final_values(relations: Sequence[Sequence[Relation]], steps: Sequence[str]) -> dict[str, Value]:
    """Variables the solution gives exactly one value, in steps that state rather than try it."""
    seen = _stated_values(relations, steps)
    return {name: next(iter(vals)) for name, vals in seen.items() if len(vals) == 1}


def back_substitute(
    relations: Sequence[Sequence[Relation]], steps: Sequence[str]
) -> list[Substitution]:
    """Steps with an equation over solved variables that the solved values contradict."""
    values = final_values(relations, steps)
    if not values:
        return []
    several = {n for n, vals in _stated_values(relations, steps).items() if len(vals) > 1}
    failures: list[Substitution] = []
    for index, (rels, text) in enumerate(zip(relations, steps, strict=True)):
        if is_tentative(text) or any(_names(rel) & several for rel in rels):
            continue  # a step about a variable that takes several values belongs to one case
        for rel in rels:
            if rel.op != "=" or single_value(rel) is not None:
                continue
            if rel.lhs_expr is None or rel.rhs_expr is None:
                continue
            names = {s.name for s in rel.lhs_expr.free_symbols | rel.rhs_expr.free_symbols}
            if not names or not names <= values.keys():
                continue
            joined = f"{rel.lhs} {rel.rhs}"
            if any(latex.function_call(n).search(joined) for n in names):
                continue
            check = check_relation(rel, {n: values[n] for n in names})
            if check.verdict == "false":
                shown = ", ".join(f"{n} = {format_signed(values[n])}" for n in sorted(names))
                failures.append(Substitution(index, f"{rel} fails with the solution's own {shown}"))
                break
    return failures


def find_back_substitution(inp: JudgeInput) -> list[Finding]:
    """A `back_substitution` finding for each step whose equation the final values fail.

    Such an equation was solved wrongly somewhere, even when every forward check passed.
    """
    relations = [extract_relations(s) for s in inp.steps]
    return [
        Finding("back_substitution", f.step, f.detail)
        for f in back_substitute(relations, inp.steps)
    ]
