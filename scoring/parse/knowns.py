"""Values established by earlier relations: `x = 4`, or derived from a linear system (docs/architecture.md 4.7).

`check_against` substitutes these into a later relation. Variables get reused (cases, roots,
sub-problems), so a value is only kept when it is unambiguous: the most recent equations are
taken first, an equation that contradicts them makes its variables ambiguous, and a value that
violates a known inequality (`x = 6` after `x > 7` was required) drops them all (backtracking).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Protocol

import sympy

from scoring.parse.mathparse import parse_math
from scoring.parse.numeric import Unevaluable, Value, evaluate

MAX_EQUATIONS = 40
MAX_SYMBOLS = 4
MAX_VARIABLES = 12
_PROBES = ((2, 3, 5, 7), (-3, 11, -13, 17))

Row = tuple[dict[str, Fraction], Fraction]  # sum(coef * var) = const


class RelationLike(Protocol):
    """What the solver reads of a relation: `equations.Relation` and `Equation` both fit."""

    @property
    def lhs(self) -> str:
        """The left side as written."""
        ...

    @property
    def rhs(self) -> str:
        """The right side as written."""
        ...

    @property
    def op(self) -> str:
        """The relation sign (`=`, `<`, ...)."""
        ...

    @property
    def lhs_expr(self) -> sympy.Basic | None:
        """The left side parsed, or None when it does not parse."""
        ...

    @property
    def rhs_expr(self) -> sympy.Basic | None:
        """The right side parsed, or None when it does not parse."""
        ...


@dataclass(frozen=True)
class Equation:
    """A relation built from two sides, for callers that have text but no `Relation`."""

    lhs: str
    rhs: str
    op: str = "="

    @property
    def lhs_expr(self) -> sympy.Basic | None:
        """The left side parsed (bounded), None when it is not mathematics."""
        return parse_math(self.lhs)

    @property
    def rhs_expr(self) -> sympy.Basic | None:
        """The right side parsed (bounded), None when it is not mathematics."""
        return parse_math(self.rhs)


def _residual(rel: RelationLike, point: Mapping[str, Value]) -> Fraction:
    assert rel.lhs_expr is not None and rel.rhs_expr is not None
    value = evaluate(rel.lhs_expr, point) - evaluate(rel.rhs_expr, point)
    if not isinstance(value, Fraction):
        raise Unevaluable("not rational")
    return value


def linear_row(rel: RelationLike) -> Row | None:
    """`rel` as a linear equation over its symbols, or None (probed with exact arithmetic)."""
    if rel.op != "=":
        return None
    return _linear_row(rel.lhs, rel.rhs)


@lru_cache(maxsize=4096)
def _linear_row(lhs: str, rhs: str) -> Row | None:
    rel = Equation(lhs, rhs)
    if rel.lhs_expr is None or rel.rhs_expr is None:
        return None
    names = sorted(s.name for s in rel.lhs_expr.free_symbols | rel.rhs_expr.free_symbols)
    if not names or len(names) > MAX_SYMBOLS:
        return None
    try:
        zero = {n: Fraction(0) for n in names}
        base = _residual(rel, zero)
        coefs = {n: _residual(rel, {**zero, n: Fraction(1)}) - base for n in names}
        for probe in _PROBES:
            point = {n: Fraction(p) for n, p in zip(names, probe, strict=False)}
            expected = base + sum(coefs[n] * point[n] for n in names)
            if _residual(rel, point) != expected:
                return None
    except (Unevaluable, TypeError, ValueError, ArithmeticError, RecursionError):
        return None
    coefs = {n: c for n, c in coefs.items() if c}
    return (coefs, -base) if coefs else None


def _reduce(row: Row, pivots: dict[str, Row]) -> Row:
    coefs, const = dict(row[0]), row[1]
    for var, (pcoefs, pconst) in pivots.items():
        factor = coefs.get(var)
        if factor:
            for v, c in pcoefs.items():
                coefs[v] = coefs.get(v, Fraction(0)) - factor * c
            const -= factor * pconst
    return {v: c for v, c in coefs.items() if c}, const


def solve_known(known: Sequence[RelationLike]) -> dict[str, Value]:
    """Unambiguous values of single variables implied by the known equations."""
    pivots: dict[str, Row] = {}  # reduced row echelon form, pivot coefficient 1
    ambiguous: set[str] = set()
    equations = [r for r in known if r.op == "="][-MAX_EQUATIONS:]
    for rel in reversed(equations):  # most recent first
        row = linear_row(rel)
        if row is None:
            continue
        coefs, const = _reduce(row, pivots)
        if not coefs:
            if const:
                ambiguous |= row[0].keys()
            continue
        var = next(iter(sorted(coefs)))
        if len(pivots) >= MAX_VARIABLES:
            break
        scale = coefs[var]
        new: Row = ({v: c / scale for v, c in coefs.items()}, const / scale)
        for other, (ocoefs, oconst) in list(pivots.items()):
            factor = ocoefs.get(var)
            if factor:
                merged = {
                    v: ocoefs.get(v, Fraction(0)) - factor * new[0].get(v, Fraction(0))
                    for v in ocoefs.keys() | new[0].keys()
                }
                pivots[other] = ({v: c for v, c in merged.items() if c}, oconst - factor * new[1])
        pivots[var] = new
    values: dict[str, Value] = {
        var: const for var, (coefs, const) in pivots.items() if coefs.keys() == {var}
    }
    for var in ambiguous:
        values.pop(var, None)
    return _respecting_constraints(known, values)


def _respecting_constraints(
    known: Sequence[RelationLike], values: dict[str, Value]
) -> dict[str, Value]:
    """No values at all once one violates a known inequality or `\\neq`.

    A violated constraint means the solution backtracked (a case was rejected), and the values
    solved alongside the rejected one belong to that case too.
    """
    for rel in known:
        if rel.op == "=" or rel.lhs_expr is None or rel.rhs_expr is None:
            continue
        names = {s.name for s in rel.lhs_expr.free_symbols | rel.rhs_expr.free_symbols}
        if not names or not names <= values.keys():
            continue
        try:
            a, b = evaluate(rel.lhs_expr, values), evaluate(rel.rhs_expr, values)
        except (Unevaluable, TypeError, ValueError, ArithmeticError):
            continue
        holds = {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "!=": a != b}.get(rel.op, True)
        if not holds:
            return {}
    return values
