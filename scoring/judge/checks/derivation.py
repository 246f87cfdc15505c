"""Steps that continue or rewrite what came before must agree with it.

- `derivation`: two one-unknown equations of one step with no root in common
  (`scoring.judge.checks.step_consequence.broken_derivations`);
- `continuation`: a step's first equation against the last one of the step before it, or an
  operation stated in words on the previous step's result ("dividing by two gives us -9");
- `rewrite`: an announced rewrite (expand, simplify, factor) that changes the value
  (`scoring.judge.checks.rewrite_check`).
"""

from __future__ import annotations

from scoring.judge.checks.rewrite_check import broken_rewrites
from scoring.judge.checks.step_consequence import broken_continuation, broken_derivations
from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.equations import Relation, check_relation, extract_relations
from scoring.parse.prose_arithmetic import continued_operation


def _carried_operation(step: str, previous: list[Relation]) -> str | None:
    """An operation in words applied to the closed result the previous step ended with."""
    last = next(
        (
            r
            for r in reversed(previous)
            if r.op == "=" and r.rhs_expr is not None and not r.rhs_expr.free_symbols
        ),
        None,
    )
    if last is None or (stated := continued_operation(step, last.rhs)) is None:
        return None
    check = check_relation(Relation(stated.lhs, stated.rhs, "=", stated.source))
    if check.verdict != "false":
        return None
    return f"applied to the previous result {last.rhs}: {check.detail}"


def find_derivations(inp: JudgeInput) -> list[Finding]:
    """`derivation`, `continuation` and `rewrite` findings: a step must agree with what it
    derives from, within the step and from the step before."""
    found: list[Finding] = []
    steps = inp.steps
    relations = [extract_relations(s) for s in steps]
    for i, step in enumerate(steps):
        for broken in broken_derivations(step, relations[i])[:1]:
            found.append(Finding("derivation", i, broken.detail))
        if i == 0:
            continue
        if cont := broken_continuation(steps[i - 1], relations[i - 1], step, relations[i]):
            found.append(Finding("continuation", i, cont.detail))
        elif (carried := _carried_operation(step, relations[i - 1])) is not None:
            found.append(Finding("continuation", i, carried))
        if rewrites := broken_rewrites(step, steps[i - 1]):
            found.append(Finding("rewrite", i, rewrites[0].detail))
    return found
