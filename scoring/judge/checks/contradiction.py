"""A relation that, with the values earlier steps established, evaluates false.

Values are carried forward from steps whose own arithmetic holds. A step that says it considers
a case ("if m = 2", 若, 当, ...) and sets a variable to a new value starts that case: its
relations are about the new value, not the old one.
"""

from __future__ import annotations

from scoring.judge.checks.arithmetic import step_check
from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.equations import (
    Relation,
    check_against,
    definitions,
    extract_relations,
    single_value,
)
from scoring.parse.lexicon import CASE_WORDS, HEDGE_WORDS, words
from scoring.parse.numeric import Value, relative_difference

_CASE = words(HEDGE_WORDS, CASE_WORDS)


def _names(rel: Relation) -> set[str]:
    exprs = (rel.lhs_expr, rel.rhs_expr)
    return {s.name for e in exprs if e is not None for s in e.free_symbols}


def _differs(old: Value, new: Value) -> bool:
    """Different beyond float noise; values too large for a float are compared exactly."""
    return relative_difference(old, new) > 1e-9


def _new_case(relations: list[Relation], known: list[Relation]) -> set[str]:
    """Variables this step sets to a value other than the one earlier steps gave them."""
    values = definitions(known)
    changed: set[str] = set()
    for rel in relations:
        if (found := single_value(rel)) is not None and found[0] in values:
            name, value = found
            if _differs(values[name], value):
                changed.add(name)
    return changed


def find_contradictions(inp: JudgeInput) -> list[Finding]:
    """A `contradiction` finding per step whose relation contradicts values established
    earlier; a step whose own arithmetic is false is left to the arithmetic check."""
    known: list[Relation] = []
    found: list[Finding] = []
    for i, step in enumerate(inp.steps):
        relations = extract_relations(step)
        if step_check(step, inp.problem).verdict == "false":
            continue
        new_case = _new_case(relations, known) if _CASE.search(step) else set()
        for rel in relations:
            if new_case and _names(rel) & new_case:
                continue
            against = check_against(known, rel)
            if against.verdict == "false":
                found.append(
                    Finding("contradiction", i, f"contradicts earlier steps: {against.detail}")
                )
                break
        else:
            known.extend(relations)
    return found
