"""Equations derived inside one step must keep the solutions of the equation they come from.

A step such as "$7y^2 = 72$, so $y^2 = 36$" derives its second equation from the first; a changed
number or operator (ReasonEval's "random number" / "random operation" perturbations, Xia et al.
2024) breaks that derivation although neither equation is closed. For one unknown this is
decidable numerically: find the real roots of both equations (sign changes on a fixed grid,
refined by bisection, all through the bounded evaluator of `scoring.parse.numeric`) and require a shared
root. The check only fires when both equations have roots we found and none is shared, and never
in steps that try cases or list alternatives ("if x = 0 ...; if x = 1 ...", "x - 1 = 0 or x = 2"),
never from a bare value (`x = 3, 2x = 7` is a new case, not a derivation), never between two
computations of the unknown's value (`x = (-4 + 2)/2`, then `x = (-4 - 2)/2`: the roots one
formula gives, listed), and never for identities. Across steps, a step continues the step before
it when it agrees with any equation that step states for the unknown: a step that lists two
roots is continued by one that keeps either.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy

from scoring.parse.equations import Relation
from scoring.parse.lexicon import DECIMAL, FRACTION, PERCENT_SIGN, joiners, latex
from scoring.parse.mathparse import parse_math
from scoring.parse.numeric import Unevaluable, evaluator, to_float
from scoring.parse.tentative import is_tentative

MAX_ROOTS = 8
BISECTIONS = 60
# Bounds count work, not seconds: a wall-clock budget left a root search unfinished on a loaded
# machine only (and cached that), so the same step was judged differently from run to run.
MAX_EVALUATIONS = 1_000  # per root search: the 127-point grid, the bisections of 14 sign changes
_GRID: tuple[float, ...] = tuple(
    sorted(
        {s * m * 10.0**e for s in (-1, 1) for e in range(-2, 7) for m in (1, 1.5, 2, 3, 4, 5, 7)}
        | {0.0}
    )
)
_BETWEEN_BLOCKS = joiners.joiner_pattern(joiners.BLOCKS, re.IGNORECASE)
_LITERAL = re.compile(
    r"[-+]?\s*(?:"
    + DECIMAL
    + "|"
    + latex.fraction(r"\s*\d+\s*", r"\s*\d+\s*")
    + "|"
    + FRACTION
    + r")(?:\s*"
    + PERCENT_SIGN
    + ")?"
)
_ROUNDED = re.compile(r"\d\.(\d+)")


@dataclass(frozen=True)
class BrokenDerivation:
    """`derived` does not share a root with `premise`, from which the step derives it."""

    premise: str
    derived: str
    variable: str
    detail: str


def _residual(lhs: sympy.Basic, rhs: sympy.Basic, name: str) -> Callable[[float], float | None]:
    left, right = evaluator(lhs, name), evaluator(rhs, name)

    def f(x: float) -> float | None:
        try:
            value = to_float(left(Fraction(x)) - right(Fraction(x)))
        except (Unevaluable, TypeError, ValueError, ArithmeticError, OverflowError, RecursionError):
            return None
        return value if math.isfinite(value) else None

    return f


def _roots(
    f: Callable[[float], float | None], max_evaluations: int = MAX_EVALUATIONS
) -> list[float] | None:
    """Real roots on the grid (sign changes, exact zeros); None when past `max_evaluations` of f
    or unreadable."""
    calls = itertools.count(1)

    def spent() -> bool:
        return next(calls) > max_evaluations

    values: list[tuple[float, float]] = []
    for x in _GRID:
        if spent():
            return None
        y = f(x)
        if y is not None:
            values.append((x, y))
    if len(values) < len(_GRID) // 2:
        return None
    if all(abs(y) < 1e-12 for _, y in values):
        return None  # an identity: every number solves it
    roots: list[float] = [x for x, y in values if y == 0]
    for (a, fa), (b, fb) in itertools.pairwise(values):
        if fa == 0 or fb == 0 or (fa > 0) == (fb > 0):
            continue
        lo, hi, flo = a, b, fa
        for _ in range(BISECTIONS):
            if spent():
                return None
            mid = (lo + hi) / 2
            fm = f(mid)
            if fm is None:
                break
            if fm == 0:
                lo = hi = mid
                break
            if (fm > 0) == (flo > 0):
                lo, flo = mid, fm
            else:
                hi = mid
        # a pole (1/x) changes sign too: keep only points where |f| is small
        mid = (lo + hi) / 2
        fm = f(mid)
        if fm is not None and abs(fm) <= 1e-6 * max(1.0, abs(fa), abs(fb)):
            roots.append(mid)
        if len(roots) > MAX_ROOTS:
            return None
    return roots


@lru_cache(maxsize=2048)
def _cached_roots(lhs: str, rhs: str, name: str) -> tuple[float, ...] | None:
    """Roots of `lhs = rhs` in `name`, cached: a step's equation is the next one's premise."""
    left, right = parse_math(lhs), parse_math(rhs)
    if left is None or right is None:
        return None
    found = _roots(_residual(left, right, name))
    return tuple(found) if found is not None else None


def _vanishes(f: Callable[[float], float | None], x: float, tol: float) -> bool:
    """f has a root within `tol` of x (sign change or a tiny value on the window)."""
    points = [f(x - tol), f(x), f(x + tol)]
    if any(p is None for p in points):
        return True  # cannot tell: do not accuse
    a, b, c = (p for p in points if p is not None)
    return b == 0 or (a > 0) != (c > 0) or abs(b) < 1e-9 * max(1.0, abs(a), abs(c))


def _tolerance(*texts: str) -> float:
    digits = [len(m.group(1)) for t in texts for m in _ROUNDED.finditer(t)]
    return max(1e-7, 10.0 ** -min(digits)) if digits else 1e-7


def _univariate(rel: Relation) -> tuple[sympy.Basic, sympy.Basic, str] | None:
    if rel.op != "=":
        return None
    lhs, rhs = parse_math(rel.lhs), parse_math(rel.rhs)
    if lhs is None or rhs is None:
        return None
    names = {s.name for s in lhs.free_symbols | rhs.free_symbols}
    if len(names) != 1:
        return None
    name = next(iter(names))
    if "_" in name:  # `a_1`, `C_5`: indexed families and notations, not one unknown
        return None
    if latex.function_call(name).search(f"{rel.lhs} {rel.rhs}"):
        return None
    return lhs, rhs, name


def _is_value(rel: Relation, lhs: sympy.Basic, rhs: sympy.Basic) -> bool:
    """`x = 4`, `x = -\\frac{1}{2}`: a value, which may start a new case. `x = 1000 - 0.5` is a
    computation whose result the solution goes on to state."""
    for symbol, other, text in ((lhs, rhs, rel.rhs), (rhs, lhs, rel.lhs)):
        if isinstance(symbol, sympy.Symbol) and not other.free_symbols:
            return _LITERAL.fullmatch(text.strip()) is not None
    return False


def _computes(lhs: sympy.Basic, rhs: sympy.Basic) -> bool:
    """`x = (-4 + 2)/2`: the bare unknown on one side, a closed expression on the other."""
    return any(
        isinstance(a, sympy.Symbol) and not b.free_symbols for a, b in ((lhs, rhs), (rhs, lhs))
    )


def broken_derivations(step: str, relations: Sequence[Relation]) -> list[BrokenDerivation]:
    """Pairs of consecutive one-unknown equations of a step with no root in common.

    Links of one chain (`|kA| = k^3 |A| = k^3 \\cdot 3`) are not compared: each link may use a
    value or a fact the previous one does not state.
    """
    if is_tentative(step):
        return []
    found: list[BrokenDerivation] = []
    previous: tuple[Relation, sympy.Basic, sympy.Basic, str] | None = None
    for rel in relations:
        parsed = _univariate(rel)
        if parsed is None:
            if rel.op != "=" or not _closed(rel):
                previous = None  # something else intervenes: not a derivation chain
            continue
        lhs, rhs, name = parsed
        chained = previous is not None and previous[0].rhs == rel.lhs  # `a = b = c`: b is shared
        if (
            previous is not None
            and previous[3] == name
            and not chained
            and not _separated(step, previous[0], rel)
        ):
            premise, plhs, prhs, _ = previous
            listed = _computes(plhs, prhs) and _computes(lhs, rhs) and not _is_value(rel, lhs, rhs)
            if not _is_value(premise, plhs, prhs) and not listed:
                broken = _compare(premise, plhs, prhs, rel, lhs, rhs, name)
                if broken is not None:
                    found.append(broken)
                    break
        previous = (rel, lhs, rhs, name)
    return found


def _closed(rel: Relation) -> bool:
    lhs, rhs = parse_math(rel.lhs), parse_math(rel.rhs)
    return lhs is not None and rhs is not None and not (lhs.free_symbols | rhs.free_symbols)


def _separated(step: str, first: Relation, second: Relation) -> bool:
    """A listing ("x + 1 = 0 and x - 2 = 0") rather than a derivation."""
    if first.source == second.source:
        return bool(_BETWEEN_BLOCKS.search(_between_in(first.source, first, second)))
    a, b = step.find(first.source), step.find(second.source)
    if a < 0 or b < 0 or b < a:
        return True
    return bool(_BETWEEN_BLOCKS.search(step[a + len(first.source) : b]))


def _between_in(source: str, first: Relation, second: Relation) -> str:
    a = source.find(first.rhs)
    b = source.find(second.lhs, a + 1) if a >= 0 else -1
    return source[a + len(first.rhs) : b] if a >= 0 and b > a else ""


def _compare(
    premise: Relation,
    plhs: sympy.Basic,
    prhs: sympy.Basic,
    derived: Relation,
    dlhs: sympy.Basic,
    drhs: sympy.Basic,
    name: str,
) -> BrokenDerivation | None:
    f, g = _residual(plhs, prhs, name), _residual(dlhs, drhs, name)
    roots_f = _cached_roots(premise.lhs, premise.rhs, name)
    roots_g = _cached_roots(derived.lhs, derived.rhs, name) if roots_f else None
    if not roots_f or not roots_g:
        return None
    tol = _tolerance(premise.lhs, premise.rhs, derived.lhs, derived.rhs)
    if any(_vanishes(g, r, tol * max(1.0, abs(r))) for r in roots_f):
        return None
    if any(_vanishes(f, r, tol * max(1.0, abs(r))) for r in roots_g):
        return None
    shown = ", ".join(f"{r:.4g}" for r in roots_f[:3])
    return BrokenDerivation(
        f"{premise.lhs} = {premise.rhs}",
        f"{derived.lhs} = {derived.rhs}",
        name,
        f"{derived.lhs} = {derived.rhs} does not follow from {premise.lhs} = {premise.rhs} "
        f"({name} = {shown} solves the first, not the second)",
    )


def broken_continuation(
    previous_step: str,
    previous: Sequence[Relation],
    step: str,
    relations: Sequence[Relation],
) -> BrokenDerivation | None:
    """The first equation of a step against the last one of the step before it (same unknown)."""
    if is_tentative(step) or is_tentative(previous_step):
        return None
    premise = next((p for rel in reversed(previous) if (p := _univariate(rel)) is not None), None)
    derived = next((p for rel in relations if (p := _univariate(rel)) is not None), None)
    if premise is None or derived is None or premise[2] != derived[2]:
        return None
    prel = next(rel for rel in reversed(previous) if _univariate(rel) is not None)
    drel = next(rel for rel in relations if _univariate(rel) is not None)
    if _is_value(prel, premise[0], premise[1]):
        return None
    broken = _compare(prel, premise[0], premise[1], drel, derived[0], derived[1], premise[2])
    if broken is None:
        return None
    for rel in previous:  # any other equation the previous step states for the unknown
        other = _univariate(rel) if rel is not prel else None
        if (
            other is not None
            and other[2] == premise[2]
            and _compare(rel, other[0], other[1], drel, derived[0], derived[1], premise[2]) is None
        ):
            return None
    return broken
