"""Where a step's numbers come from: the problem, an earlier step, or one operation on those.

A number written as an elided decimal (`0.3333...`) approximates something and is not judged,
nor are the digits of a number in another base (`1556_7`); a decimal may round what it explains.
A number that none of these explain came from nowhere: a step changed at random (ReasonEval's
"random number"), a step that leans on a removed one ("remove step"), or a mental computation
the writer did not show. The last is common in correct solutions too, so this is soft evidence:
it lowers a step's validity, it never labels it incorrect.
"""

from __future__ import annotations

import math
import re
from collections import deque
from collections.abc import Iterator, Sequence
from fractions import Fraction

import numpy as np
import sympy

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.bases import IN_BASE
from scoring.parse.equations import Relation, check_relation, extract_relations
from scoring.parse.lexicon import ELLIPSIS
from scoring.parse.numeric import Unevaluable, evaluate, to_float
from scoring.parse.quantities import TRIVIAL, literal_numbers

COMMON_CONSTANTS = frozenset({"10", "12", "24", "60", "100", "180", "360", "1000"})
MAX_POOL = 40
MAX_SUBTERMS = 64
MAX_NUMBERS = 64  # per step: the work per number grows with the step's own numbers
_ELIDED = re.compile(r"(?<![\d.])\d+\.\d+\s*(?:" + ELLIPSIS + ")")


def _value(text: str) -> float | None:
    """The number a literal writes, or None (also for one too large for a float)."""
    try:
        value = to_float(Fraction(text))
    except (ValueError, ZeroDivisionError):
        return None
    return value if math.isfinite(value) else None


def _key(value: float) -> float:
    return round(value, 6)


def _combine(a: float, b: float) -> tuple[float, ...]:
    """One +, -, x or / of a and b, both ways round."""
    out = [a + b, a - b, b - a, a * b]
    out += [a / b] if b else []
    out += [b / a] if a else []
    return tuple(_key(v) for v in out)


def _reachable(pool: Sequence[float]) -> set[float]:
    """Everything one +, -, x or / of two pool numbers gives, or the square or cube of one
    (vectorised: it runs per step)."""
    if not pool:
        return set()
    a = np.asarray(pool, dtype=float)[:, None]
    b = a.T
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        grid = np.concatenate(
            [
                (a + b).ravel(),
                (a - b).ravel(),
                (a * b).ravel(),
                (a / b).ravel(),
                (a**2).ravel(),
                (a**3).ravel(),
            ]
        )
    grid = np.round(grid[np.isfinite(grid)], 6)
    return set(grid.tolist())


def _rounded_from(text: str, value: float, candidates: np.ndarray) -> bool:
    """`1.57` written for 1571 / 1001 = 1.5694...: a candidate rounded to the digits shown."""
    if "." not in text:
        return False
    digits = len(text.split(".", 1)[1])
    if not 1 <= digits <= 5 or not candidates.size:
        return False
    return bool(np.any(np.abs(candidates - value) <= 0.5 * 10.0**-digits + 1e-12))


def _subterms(expr: sympy.Basic) -> Iterator[sympy.Basic]:
    """The expression and its closed compound parts, breadth first and bounded (`4 * 5^3` gives
    500 and 125, not the literals 4, 5 and 3)."""
    queue = [expr]
    for count, node in enumerate(queue):
        if count >= MAX_SUBTERMS:
            return
        if count == 0 or node.args:  # a literal inside shown work is an input, not a result
            yield node
        queue.extend(a for a in node.args if isinstance(a, sympy.Basic) and not a.free_symbols)


def _shown_work(relations: Sequence[Relation]) -> set[float]:
    """Values of relations the step computes correctly (`19 + 26 + 8 = 53`): shown work.

    The parts of such a relation count too: `4 \\cdot 5^3 = 4 \\cdot 125` shows 125.
    """
    shown: set[float] = set()
    for rel in relations:
        if check_relation(rel).verdict != "true":
            continue
        for expr in (rel.lhs_expr, rel.rhs_expr):
            if expr is None:
                continue
            for term in _subterms(expr):
                try:
                    shown.add(_key(to_float(evaluate(term))))
                except (Unevaluable, TypeError, ValueError, ArithmeticError, OverflowError):
                    continue
    return shown


def _unexplained(
    mine: Sequence[tuple[str, float]], pool: list[float], known: set[float]
) -> list[str]:
    """The step's numbers `mine` (text, value) that neither `known` values nor one operation on
    two of `pool` explain; a step may compute from what it wrote before a number.

    What one operation on the pool reaches is worked out only when a number is not known, and
    each number's combinations with the pool join it only when a later number needs them: most
    numbers are known, and combining every one cost more than all the rest of the check.
    """
    start = len(pool)
    reach: set[float] = set()
    reached = False
    pending: list[tuple[float, int]] = []  # (value, pool size before it), not combined yet
    unexplained = []
    candidates: np.ndarray | None = None  # built on demand: most steps never need it
    for text, value in mine:
        key = _key(value)
        if key not in known:
            if not reached:
                reach, reached = _reachable(pool[:start]), True
            if pending and key not in reach:
                for done, size in pending:
                    reach.update(c for other in (*pool[:size], done) for c in _combine(done, other))
                pending.clear()
        if key in known or key in reach:
            pass
        elif "." not in text:
            unexplained.append(text)
        else:
            if candidates is None:
                candidates = np.fromiter((*reach, *known), dtype=float)
            if not _rounded_from(text, value, candidates):
                unexplained.append(text)
        pending.append((value, len(pool)))
        pool.append(value)
    return unexplained


def unexplained_numbers(
    problem: str, steps: Sequence[str], relations: Sequence[Sequence[Relation]] | None = None
) -> list[list[str]]:
    """Per step, the numbers it mentions that neither the problem nor earlier steps explain.

    `relations` are the steps' relations when the caller has already extracted them.
    """
    if relations is None:
        relations = [extract_relations(step) for step in steps]
    seen: set[float] = set()
    recent: deque[float] = deque(maxlen=MAX_POOL)  # the latest new values: the pool
    given: set[float] = set()  # the keys of `seen` and of their negatives, kept as `seen` grows

    def remember(value: float) -> None:
        if value not in seen:
            seen.add(value)
            recent.append(value)
            given.update((_key(value), _key(-value)))

    for text in (*TRIVIAL, *COMMON_CONSTANTS, *literal_numbers(problem)):
        if (v := _value(text)) is not None:
            remember(v)
    result: list[list[str]] = []
    for step, rels in zip(steps, relations, strict=True):
        elided = set(literal_numbers(" ".join(m.group() for m in _ELIDED.finditer(step))))
        elided |= set(literal_numbers(" ".join(m.group(1) for m in IN_BASE.finditer(step))))
        mine = [
            (t, v)
            for t in list(dict.fromkeys(literal_numbers(step)))[:MAX_NUMBERS]
            if t not in elided and (v := _value(t)) is not None
        ]
        result.append(_unexplained(mine, list(recent), given | _shown_work(rels)))
        for _, v in mine:
            remember(v)
    return result


def find_unexplained(inp: JudgeInput) -> list[Finding]:
    """An `unexplained_number` finding for each step with numbers nothing explains, or
    `unexplained_unused` when no later step uses them either: an unshown mental computation is
    made to be used, a changed number is not, since the steps after it were written with the
    original."""
    steps = inp.steps
    relations = [extract_relations(s) for s in steps]
    unexplained = unexplained_numbers(inp.problem, steps, relations)
    later: list[set[str]] = [set() for _ in steps]
    after: set[str] = set()
    for i in range(len(steps) - 1, -1, -1):
        later[i] = set(after)
        after |= set(literal_numbers(steps[i]))
    found: list[Finding] = []
    for i, numbers in enumerate(unexplained):
        if not numbers:
            continue
        unused = [n for n in numbers if n not in later[i]] if i < len(steps) - 1 else []
        shown = ", ".join((unused or numbers)[:3])
        if unused:
            found.append(
                Finding(
                    "unexplained_unused",
                    i,
                    f"mentions {shown}, which neither the "
                    "problem nor an earlier step explains and no later step uses",
                )
            )
        else:
            found.append(
                Finding(
                    "unexplained_number",
                    i,
                    f"mentions {shown}, which neither the problem nor an earlier step explains",
                )
            )
    return found
