"""Where a step's numbers come from: the problem, an earlier step, or one operation on those.

A number that none of these explain came from nowhere: a step changed at random (ReasonEval's
"random number"), a step that leans on a removed one ("remove step"), or a mental computation
the writer did not show. The last is common in correct solutions too, so this is soft evidence:
it lowers a step's validity, it never labels it incorrect.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from scoring.equations import check_relation, extract_relations
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


def _reachable(pool: Sequence[float]) -> set[float]:
    """Everything one +, -, x or / of two pool numbers gives."""
    reach: set[float] = set()
    for a, b in itertools.product(pool, repeat=2):
        reach.update((_key(a + b), _key(a - b), _key(a * b)))
        if b:
            reach.add(_key(a / b))
    return reach


def _shown_work(step: str) -> set[float]:
    """Values of relations the step computes correctly (`19 + 26 + 8 = 53`): shown work."""
    shown: set[float] = set()
    for rel in extract_relations(step):
        if check_relation(rel).verdict != "true":
            continue
        for expr in (rel.lhs_expr, rel.rhs_expr):
            try:
                shown.add(_key(float(evaluate(expr))))
            except (Unevaluable, TypeError, ValueError, ArithmeticError):
                continue
    return shown


def unexplained_numbers(problem: str, steps: Sequence[str]) -> list[list[str]]:
    """Per step, the numbers it mentions that neither the problem nor earlier steps explain."""
    seen: list[float] = []
    for text in (*TRIVIAL, *COMMON_CONSTANTS, *literal_numbers(problem)):
        if (v := _value(text)) is not None and v not in seen:
            seen.append(v)
    result: list[list[str]] = []
    for step in steps:
        mine = [(t, v) for t in dict.fromkeys(literal_numbers(step)) if (v := _value(t)) is not None]
        known = {_key(v) for v in seen} | {_key(-v) for v in seen} | _shown_work(step)
        unexplained = []
        for k, (text, value) in enumerate(mine):
            if _key(value) in known:
                continue
            before = [v for _, v in mine[:k]]  # a step may compute from what it wrote before
            if _key(value) not in _reachable(seen[-MAX_POOL:] + before):
                unexplained.append(text)
        result.append(unexplained)
        seen.extend(v for _, v in mine if v not in seen)
    return result
