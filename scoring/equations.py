"""Symbolic step checks: closed numeric relations in a step, evaluated (DESIGN.md 4.7).

A relation whose sides are closed numeric expressions (`1.82 - 1.24 = 0.48`) can be decided, and a
false one is strong evidence of an `incorrect` step (ReasonEval's "random number" and "random
operation" perturbations). Everything else is "unknown": we would rather miss an error than accuse
a correct step. Rounding is tolerated to the precision the writer shows (`2/3 = 0.67`), `\\approx`
to that or 1%. Work is bounded per side (see `scoring.mathparse`, `scoring.numeric`) and per step
(at most `MAX_RELATIONS` relations), with no signals, so it is safe in any thread. The bounds
count work, never wall-clock time: a budget in seconds cut the same step short on a loaded
machine and not on a quiet one, and the same request got different labels.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property, lru_cache
from typing import Literal

import sympy

from scoring.knowns import solve_known
from scoring.mathparse import parse_math, units_of
from scoring.mathstatements import Op, find_statements, split_chain
from scoring.numeric import Unevaluable, Value, evaluate, format_value, to_float
from scoring.prose_arithmetic import prose_statements
from scoring.rewrite_check import differ

Verdict = Literal["true", "false", "unknown"]

_DECIMAL = re.compile(r"^\s*-?\s*(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?\s*$")
_REMAINDER = re.compile(r"remainder|余数|余\d|余下|\bmod\b|\\pmod|\\bmod", re.IGNORECASE)
_ELLIPSIS = re.compile(r"\.\.\.|\\[lc]?dots|…")
_HEDGE = re.compile(
    r"\bnot\b|n't\b|\bfalse\b|\bwrong\b|\bincorrect\b|contradict|impossible|\bnever\b"
    r"|\bfails?\b|\bplug(?:ging|ged)?\b|\bcheck|\btest|\bsuppos|\bassum|不|矛盾|错|假设|检验|验证",
    re.IGNORECASE,
)
_PERCENT_END = re.compile(r"\\?%\s*$")
_FUNCTION_CALL = r"(?<![A-Za-z\\]){}\s*\("
_EPS = 1e-9


@dataclass(frozen=True)
class Relation:
    """One relation `lhs op rhs` of a step; `source` is the text fragment it was read from."""

    lhs: str
    rhs: str
    op: Op
    source: str

    @cached_property
    def lhs_expr(self) -> sympy.Basic | None:
        return parse_math(self.lhs)

    @cached_property
    def rhs_expr(self) -> sympy.Basic | None:
        return parse_math(self.rhs)

    def __str__(self) -> str:
        shown = {"approx": "≈"}.get(self.op, self.op)
        return f"{self.lhs} {shown} {self.rhs}"


@dataclass(frozen=True)
class RelationCheck:
    relation: Relation
    verdict: Verdict
    detail: str


@dataclass(frozen=True)
class StepCheck:
    relations: list[RelationCheck]
    verdict: Verdict
    evidence: str


MAX_RELATIONS = 64  # per step: a step is read through at most this many relations


@dataclass(frozen=True)
class StepConfig:
    """Bounds for one step: how many relations to check."""

    max_relations: int = MAX_RELATIONS


def extract_relations(step: str) -> list[Relation]:
    """All relations of a step, chains split pairwise (`a = b = c` -> a=b, b=c). Never raises."""
    return list(_relations(step))


@lru_cache(maxsize=4096)
def _relations(step: str) -> tuple[Relation, ...]:
    # Several checks read the same step's relations; cached, a step is read and parsed once.
    try:
        statements = find_statements(step)
    except (RecursionError, ValueError):
        return ()
    found = (Relation(lhs, rhs, op, st.source) for st in statements
             for lhs, op, rhs in split_chain(st.text) if op is not None)
    return tuple(itertools.islice(found, MAX_RELATIONS))


def prose_relations(step: str) -> list[Relation]:
    """Closed operations a step states in words, as relations (see `scoring.prose_arithmetic`)."""
    try:
        return [Relation(s.lhs, s.rhs, "=", s.source) for s in prose_statements(step)
                if not s.identity]
    except (RecursionError, ValueError):
        return []


def _prose_identities(step: str) -> list[RelationCheck]:
    """"Dividing $4x^3$ by $3x^3$ gives $\\frac{4}{3}$": decided at sample points."""
    try:
        statements = [s for s in prose_statements(step) if s.identity]
    except (RecursionError, ValueError):
        return []
    checks = []
    for st in statements:
        rel = Relation(st.lhs, st.rhs, "=", st.source)
        verdict = differ(st.lhs, st.rhs)
        if verdict is True:
            checks.append(RelationCheck(rel, "false", f"{rel} is false for most values"))
        elif verdict is False:
            checks.append(RelationCheck(rel, "true", f"{rel} holds"))
    return checks


def _shown_decimals(side: str) -> int | None:
    """Digits after the point when a side is a bare decimal literal (`0.67` -> 2, `216` -> 0)."""
    m = _DECIMAL.match(side)
    if m is None:
        return None
    return len(m.group(1)) if m.group(1) else 0


def _close(a: Value, b: Value, op: Op, rel: Relation) -> bool:
    """Equality up to float noise, or up to the rounding the writer shows."""
    if isinstance(a, Fraction) and isinstance(b, Fraction) and a == b:
        return True
    scale = max(abs(to_float(a)), abs(to_float(b)), 1e-12)
    diff = to_float(abs(Fraction(a) - Fraction(b)))  # exact: both are finite (`numeric._check`)
    floats = not isinstance(a, Fraction) or not isinstance(b, Fraction)
    if floats and diff <= _EPS * max(scale, 1.0):  # float noise: sin(3pi) is 3.7e-16, not 0
        return True
    shown = [(d, v) for d, v in ((_shown_decimals(rel.lhs), b), (_shown_decimals(rel.rhs), a))
             if d is not None]
    tolerance = 0.0
    for digits, other in shown:
        exact = isinstance(other, Fraction) and (other * 10**digits).denominator == 1
        if op == "approx" or (not exact and digits > 0):
            tolerance = max(tolerance, 10.0**-digits)  # rounded or truncated to the shown digits
    if op == "approx":
        tolerance = max(tolerance, 0.01 * scale)
    return diff < tolerance * (1 + _EPS)


def _compare(a: Value, b: Value, rel: Relation) -> bool:
    op = rel.op
    if op in ("=", "approx"):
        return _close(a, b, op, rel)
    if op == "!=":
        return not _close(a, b, "=", rel)
    fa: Value
    fb: Value
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        fa, fb = a, b
    else:
        fa, fb = to_float(a), to_float(b)
        if not (math.isfinite(fa) and math.isfinite(fb)):  # beyond float range: compare exactly
            fa, fb = Fraction(a), Fraction(b)
    slack = 0 if isinstance(fa, Fraction) else _EPS * max(abs(fa), abs(fb), 1.0)
    return {"<": fa < fb + slack, ">": fa > fb - slack,
            "<=": fa <= fb + slack, ">=": fa >= fb - slack}[op]


def check_relation(rel: Relation, values: dict[str, Value] | None = None) -> RelationCheck:
    """Decide a relation whose sides are closed (after substituting `values`); else "unknown"."""
    if _ELLIPSIS.search(rel.lhs) or _ELLIPSIS.search(rel.rhs):
        return RelationCheck(rel, "unknown", f"{rel}: elided terms")
    if rel.lhs_expr is None or rel.rhs_expr is None:
        return RelationCheck(rel, "unknown", f"{rel}: not arithmetic we can read")
    left, right = units_of(rel.lhs), units_of(rel.rhs)
    if left and right and left != right:
        return RelationCheck(rel, "unknown", f"{rel}: different units on each side")
    try:
        a, b = evaluate(rel.lhs_expr, values), evaluate(rel.rhs_expr, values)
        ok = _compare(a, b, rel) or _percent_convention(rel, a, b)
    except Unevaluable as exc:
        return RelationCheck(rel, "unknown", f"{rel}: {exc}")
    except (TypeError, ValueError, OverflowError, ArithmeticError) as exc:
        return RelationCheck(rel, "unknown", f"{rel}: {type(exc).__name__}")
    if ok:
        return RelationCheck(rel, "true", f"{rel} holds")
    shown = format_signed(a)
    if len(shown) > 24:
        shown = f"{float(a):.6g}" if abs(a) < 1e300 else "a very large number"
    return RelationCheck(rel, "false", f"{rel} is false ({shown})")


def _percent_convention(rel: Relation, a: Value, b: Value) -> bool:
    """`(100 / 256) x 100 = 39.06%`: a percent sign labelling a number that is already x100."""
    left, right = _PERCENT_END.search(rel.lhs), _PERCENT_END.search(rel.rhs)
    if bool(left) == bool(right):
        return False
    bare = replace(rel, lhs=_PERCENT_END.sub("", rel.lhs), rhs=_PERCENT_END.sub("", rel.rhs))
    return _close(a * 100, b, rel.op, bare) if left else _close(a, b * 100, rel.op, bare)


def format_signed(value: Value) -> str:
    text = format_value(value)
    return f"-{text}" if value < 0 else text


def definitions(known: Sequence[Relation]) -> dict[str, Value]:
    """Values of single variables that earlier relations establish unambiguously."""
    return solve_known(known)


def single_value(rel: Relation) -> tuple[str, Value] | None:
    """`x = 4` or `4 = x`: a single symbol given a closed value."""
    if rel.op != "=" or rel.lhs_expr is None or rel.rhs_expr is None:
        return None
    for symbol, other in ((rel.lhs_expr, rel.rhs_expr), (rel.rhs_expr, rel.lhs_expr)):
        if isinstance(symbol, sympy.Symbol) and not other.free_symbols:
            try:
                return symbol.name, evaluate(other)
            except (Unevaluable, TypeError, ValueError, ArithmeticError, RecursionError):
                return None
    return None


def _is_definition(rel: Relation) -> bool:
    return isinstance(rel.lhs_expr, sympy.Symbol) or isinstance(rel.rhs_expr, sympy.Symbol)


def check_against(known: Sequence[Relation], rel: Relation) -> RelationCheck:
    """Substitute values established earlier into `rel` and decide it if that closes it.

    Only relations that actually use an established variable are decided here, and a relation
    that (re)defines a variable is left alone: variables are reused across cases and sub-problems.
    """
    try:
        values = definitions(known)
        if rel.lhs_expr is None or rel.rhs_expr is None or _is_definition(rel):
            return RelationCheck(rel, "unknown", f"{rel}: not checked against earlier steps")
        names = {s.name for s in rel.lhs_expr.free_symbols | rel.rhs_expr.free_symbols}
    except (RecursionError, TypeError, ValueError, AttributeError):
        return RelationCheck(rel, "unknown", f"{rel}: not checked against earlier steps")
    if not names or not names <= values.keys():
        return RelationCheck(rel, "unknown", f"{rel}: no earlier values close it")
    text = f"{rel.lhs} {rel.rhs}"
    if any(re.search(_FUNCTION_CALL.format(re.escape(n)), text) for n in names if len(n) == 1):
        return RelationCheck(rel, "unknown", f"{rel}: reads like function notation")
    check = check_relation(rel, {n: values[n] for n in names})
    shown = ", ".join(f"{n} = {format_signed(values[n])}" for n in sorted(names))
    return RelationCheck(rel, check.verdict, f"{check.detail} with {shown}")


def _hedged(step: str, rel: Relation) -> bool:
    """"1 = 3 + 4 is clearly not true", "plugging in 1 ...": the step rejects or tests the
    relation. Only the relation's own sentence and what follows it count: "So that's not it
    either. Let's try 35: ..." rejects the previous candidate, not the new arithmetic."""
    at = step.find(rel.source) if rel.source else -1
    if at < 0:
        return _HEDGE.search(step) is not None
    start = max(step.rfind(". ", 0, at), step.rfind("! ", 0, at), step.rfind("? ", 0, at),
                step.rfind("\n", 0, at), step.rfind("。", 0, at))
    return _HEDGE.search(step[start + 1 :]) is not None


def check_step(step: str, config: StepConfig = StepConfig()) -> StepCheck:
    """Check every closed relation of a step; never raises, work is bounded by `config`.

    Arithmetic stated in words ("divide 6 into 54 to get 9") counts as relations too
    (`scoring.prose_arithmetic`).

    Relations are not substituted into each other within a step: steps that try cases
    (`if x = 0 then y^2 = -1, no solution`) would read as contradictions.
    """
    stated = extract_relations(step)
    relations = stated + prose_relations(step)
    if _REMAINDER.search(step):  # `4 \div 5 = 0` with a remainder is integer division
        relations = [r for r in relations if not re.search(r"\\div|/|÷", r.lhs + r.rhs)]
    checks: list[RelationCheck] = []
    skipped = 0
    for i, rel in enumerate(relations):
        if i >= config.max_relations:
            skipped = len(relations) - i
            break
        check = check_relation(rel)
        checks.append(check)
    checks.extend(_prose_identities(step))
    note = f"; {skipped} relation(s) not checked (budget)" if skipped else ""
    if not skipped and len(stated) >= MAX_RELATIONS:
        note = f"; only the first {MAX_RELATIONS} relations are checked (budget)"
    if any(c.verdict == "false" and _hedged(step, c.relation) for c in checks):
        checks = [replace(c, verdict="unknown", detail=f"{c.detail}, but the step rejects or "
                          "tests it") if c.verdict == "false" and _hedged(step, c.relation)
                  else c for c in checks]
    false = [c for c in checks if c.verdict == "false"]
    if false:
        return StepCheck(checks, "false", "; ".join(c.detail for c in false) + note)
    true = [c for c in checks if c.verdict == "true"]
    if true:
        return StepCheck(checks, "true", "; ".join(c.detail for c in true) + note)
    return StepCheck(checks, "unknown", ("no closed relation to check" if checks else
                                         "no relation found") + note)
