"""Where a step's numbers come from: the problem, an earlier step, or one operation on those.

A number that none of these explain came from nowhere: a step changed at random (ReasonEval's
"random number"), a step that leans on a removed one ("remove step"), or a mental computation
the writer did not show. The last is common in correct solutions too, so this is soft evidence:
it lowers a step's validity, it never labels it incorrect.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from scoring.equations import Relation, check_relation, extract_relations
from scoring.numeric import Unevaluable, evaluate
from scoring.quantities import TRIVIAL, literal_numbers

COMMON_CONSTANTS = frozenset({"10", "12", "24", "60", "100", "180", "360", "1000"})
MAX_POOL = 40


def _value(text: str) -> float | None:
    try:
        return float(Fraction(text))
    except (ValueError, ZeroDivisionError):
        return None


def _key(value: float) -> float:
    return round(value, 6)


def _combine(a: float, b: float) -> tuple[float, ...]:
    """One +, -, x or / of a and b, both ways round."""
    out = [a + b, a - b, b - a, a * b]
    out += [a / b] if b else []
    out += [b / a] if a else []
    return tuple(_key(v) for v in out)


def _reachable(pool: Sequence[float]) -> set[float]:
    """Everything one +, -, x or / of two pool numbers gives (vectorised: it runs per step)."""
    if not pool:
        return set()
    a = np.asarray(pool, dtype=float)[:, None]
    b = a.T
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        grid = np.concatenate([(a + b).ravel(), (a - b).ravel(), (a * b).ravel(), (a / b).ravel()])
    grid = np.round(grid[np.isfinite(grid)], 6)
    return set(grid.tolist())


def _shown_work(relations: Sequence[Relation]) -> set[float]:
    """Values of relations the step computes correctly (`19 + 26 + 8 = 53`): shown work."""
    shown: set[float] = set()
    for rel in relations:
        if check_relation(rel).verdict != "true":
            continue
        for expr in (rel.lhs_expr, rel.rhs_expr):
            try:
                shown.add(_key(float(evaluate(expr))))
            except (Unevaluable, TypeError, ValueError, ArithmeticError):
                continue
    return shown


def unexplained_numbers(
    problem: str, steps: Sequence[str], relations: Sequence[Sequence[Relation]] | None = None
) -> list[list[str]]:
    """Per step, the numbers it mentions that neither the problem nor earlier steps explain.

    `relations` are the steps' relations when the caller has already extracted them.
    """
    if relations is None:
        relations = [extract_relations(step) for step in steps]
    seen: list[float] = []
    for text in (*TRIVIAL, *COMMON_CONSTANTS, *literal_numbers(problem)):
        if (v := _value(text)) is not None and v not in seen:
            seen.append(v)
    result: list[list[str]] = []
    for step, rels in zip(steps, relations, strict=True):
        mine = [(t, v) for t in dict.fromkeys(literal_numbers(step)) if (v := _value(t)) is not None]
        known = {_key(v) for v in seen} | {_key(-v) for v in seen} | _shown_work(rels)
        pool = seen[-MAX_POOL:]
        reach = _reachable(pool)
        unexplained = []
        for text, value in mine:  # a step may compute from what it wrote before a number
            if _key(value) not in known and _key(value) not in reach:
                unexplained.append(text)
            reach.update(c for other in (*pool, value) for c in _combine(value, other))
            pool = [*pool, value]
        result.append(unexplained)
        seen.extend(v for _, v in mine if v not in seen)
    return result
