"""Symbolic step checks: closed numeric relations in a step, evaluated (docs/architecture.md 4.7).

A relation whose sides are closed numeric expressions (`1.82 - 1.24 = 0.48`) can be decided, and a
false one is strong evidence of an `incorrect` step (ReasonEval's "random number" and "random
operation" perturbations). Everything else is "unknown": we would rather miss an error than accuse
a correct step. Rounding is tolerated to the precision the writer shows (`2/3 = 0.67`), `\\approx`
to that or 1%. Work is bounded per side (see `scoring.parse.mathparse`, `scoring.parse.numeric`) and per step
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

from scoring.parse.approximation import close
from scoring.parse.bases import read_in_base
from scoring.parse.differ import differ
from scoring.parse.division import (
    has_division,
    is_bracketed,
    is_whole_count,
    quotient_remainder,
    states_remainder,
)
from scoring.parse.knowns import solve_known
from scoring.parse.lexicon import (
    CHECK_WORDS,
    COUNT_UNITS,
    ELLIPSIS,
    NEGATION_WORDS,
    PERCENT_SIGN,
    SUPPOSE_WORDS,
    latex,
    words,
)
from scoring.parse.mathparse import parse_math
from scoring.parse.mathstatements import Op, find_statements, split_chain
from scoring.parse.names import cannot_be_pi, is_bare_pi, with_times_signs, x_is_times
from scoring.parse.numeric import Unevaluable, Value, evaluate, format_value, to_float
from scoring.parse.prose_arithmetic import prose_statements
from scoring.parse.step_context import EXACT, Reading, read_context
from scoring.parse.units import is_conversion, units_of

Verdict = Literal["true", "false", "unknown"]

_ELLIPSIS = re.compile(ELLIPSIS)
_HEDGE = words(NEGATION_WORDS, CHECK_WORDS, SUPPOSE_WORDS)
_PERCENT_END = re.compile(PERCENT_SIGN + r"\s*$")
# `÷ 2/3`: a fraction written after a division sign, which a student divides by whole
_DIVIDED_BY_FRACTION = re.compile(
    r"(÷|\\div(?![A-Za-z]))\s*(\d+(?:\.\d+)?\s*/\s*\d+(?:\.\d+)?)(?![\d.]|\s*[\^(])"
)
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
        """The left side parsed once (bounded), None when it is not mathematics."""
        return parse_math(self.lhs)

    @cached_property
    def rhs_expr(self) -> sympy.Basic | None:
        """The right side parsed once (bounded), None when it is not mathematics."""
        return parse_math(self.rhs)

    def __str__(self) -> str:
        shown = {"approx": "≈"}.get(self.op, self.op)
        return f"{self.lhs} {shown} {self.rhs}"


@dataclass(frozen=True)
class RelationCheck:
    """One relation's verdict with a detail a person can read."""

    relation: Relation
    verdict: Verdict
    detail: str


@dataclass(frozen=True)
class StepCheck:
    """A step's relations, their verdicts and the step's verdict with its evidence."""

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
    times = x_is_times(step)
    found = (
        Relation(
            *((with_times_signs(lhs), with_times_signs(rhs)) if times else (lhs, rhs)),
            op,
            st.source,
        )
        for st in statements
        for lhs, op, rhs in split_chain(st.text)
        if op is not None
    )
    return tuple(itertools.islice(found, MAX_RELATIONS))


def remainder_relations(step: str) -> list[Relation]:
    """ "a ÷ b = q R r" (also 余, remainder, q……r) as a = b·q + r and r < b (`scoring.parse.division`)."""
    found = []
    for a, b, q, r, source in quotient_remainder(step):
        found += [Relation(f"({b}) * ({q}) + ({r})", a, "=", source), Relation(r, b, "<", source)]
    return found


def prose_relations(step: str) -> list[Relation]:
    """Closed operations a step states in words, as relations (see `scoring.parse.prose_arithmetic`)."""
    try:
        return [
            Relation(s.lhs, s.rhs, "=", s.source) for s in prose_statements(step) if not s.identity
        ]
    except (RecursionError, ValueError):
        return []


def _prose_identities(step: str) -> list[RelationCheck]:
    """ "Dividing $4x^3$ by $3x^3$ gives $\\frac{4}{3}$": decided at sample points."""
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


def _compare(a: Value, b: Value, rel: Relation, reading: Reading) -> bool:
    op = rel.op
    if op in ("=", "approx"):
        return close(a, b, rel.lhs, rel.rhs, op == "approx" or reading.approximate, reading.figures)
    if op == "!=":
        return not close(a, b, rel.lhs, rel.rhs, False)
    fa: Value
    fb: Value
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        fa, fb = a, b
    else:
        fa, fb = to_float(a), to_float(b)
        if not (math.isfinite(fa) and math.isfinite(fb)):  # beyond float range: compare exactly
            fa, fb = Fraction(a), Fraction(b)
    slack = 0 if isinstance(fa, Fraction) else _EPS * max(abs(float(fa)), abs(float(fb)), 1.0)
    return {
        "<": fa < fb + slack,
        ">": fa > fb - slack,
        "<=": fa <= fb + slack,
        ">=": fa >= fb - slack,
    }[op]


def check_relation(
    rel: Relation, values: dict[str, Value] | None = None, reading: Reading = EXACT
) -> RelationCheck:
    """Decide a relation whose sides are closed (after substituting `values`); else "unknown".

    `reading` (`scoring.parse.step_context`) says how the step's words want it read: approximately, as a
    count of whole items, in another base, with π as a name.
    """
    if not values:
        return _check_closed(rel, reading)
    return _check_relation(rel, values, reading)


@lru_cache(maxsize=8192)
def _check_closed(rel: Relation, reading: Reading) -> RelationCheck:
    # Several checks decide the same relation of a step as written (the arithmetic check, shown
    # work, other readings): evaluated once. The key is the relation's text and the reading.
    return _check_relation(rel, None, reading)


def _check_relation(
    rel: Relation, values: dict[str, Value] | None, reading: Reading
) -> RelationCheck:
    if _ELLIPSIS.search(rel.lhs) or _ELLIPSIS.search(rel.rhs):
        return RelationCheck(rel, "unknown", f"{rel}: elided terms")
    if rel.lhs_expr is None or rel.rhs_expr is None:
        return RelationCheck(rel, "unknown", f"{rel}: not arithmetic we can read")
    if is_conversion(rel.lhs, rel.rhs):
        return RelationCheck(rel, "unknown", f"{rel}: a unit conversion")
    if reading.pi_is_name and sympy.pi in (rel.lhs_expr.atoms() | rel.rhs_expr.atoms()):
        return RelationCheck(rel, "unknown", f"{rel}: π names a quantity here")
    try:
        a, b = evaluate(rel.lhs_expr, values), evaluate(rel.rhs_expr, values)
        ok = (
            _compare(a, b, rel, reading)
            or _percent_convention(rel, a, b, reading)
            or _fraction_divisor(rel, values, reading)
        )
        other = _other_reading(rel, a, b, reading) if not ok else None
    except Unevaluable as exc:
        return RelationCheck(rel, "unknown", f"{rel}: {exc}")
    except (TypeError, ValueError, OverflowError, ArithmeticError) as exc:
        return RelationCheck(rel, "unknown", f"{rel}: {type(exc).__name__}")
    if ok:
        return RelationCheck(rel, "true", f"{rel} holds")
    if other is not None:
        return other
    shown = format_signed(a)
    if len(shown) > 24:
        shown = f"{float(a):.6g}" if -1e300 < a < 1e300 else "a very large number"
    return RelationCheck(rel, "false", f"{rel} is false ({shown})")


def _percent_convention(rel: Relation, a: Value, b: Value, reading: Reading) -> bool:
    """`(100 / 256) x 100 = 39.06%`: a percent sign labelling a number that is already x100."""
    left, right = _PERCENT_END.search(rel.lhs), _PERCENT_END.search(rel.rhs)
    if bool(left) == bool(right) or rel.op not in ("=", "approx"):
        return False
    lhs, rhs = _PERCENT_END.sub("", rel.lhs), _PERCENT_END.sub("", rel.rhs)
    approximate = rel.op == "approx" or reading.approximate
    if left:
        return close(a * 100, b, lhs, rhs, approximate, reading.figures)
    return close(a, b * 100, lhs, rhs, approximate, reading.figures)


def _fraction_divisor(rel: Relation, values: dict[str, Value] | None, reading: Reading) -> bool:
    """`3/5 ÷ 2/3 = 3/5 × 3/2`: read left to right, `÷ 2/3` divides by 2 and then by 3; the
    student divides by the fraction. A relation that holds when every fraction after a division
    sign is one divisor holds: of the two readings, it is the one its writer meant."""
    lhs, rhs = (_DIVIDED_BY_FRACTION.sub(r"\1 (\2)", side) for side in (rel.lhs, rel.rhs))
    if (lhs, rhs) == (rel.lhs, rel.rhs):
        return False
    grouped = Relation(lhs, rhs, rel.op, rel.source)
    if grouped.lhs_expr is None or grouped.rhs_expr is None:
        return False
    a, b = evaluate(grouped.lhs_expr, values), evaluate(grouped.rhs_expr, values)
    return _compare(a, b, grouped, reading)


def _other_reading(rel: Relation, a: Value, b: Value, reading: Reading) -> RelationCheck | None:
    """A relation false as plain decimal arithmetic that the step's words read otherwise."""
    if rel.op != "=":
        return None
    for side, other, exact, shown in ((rel.lhs, rel.rhs, a, b), (rel.rhs, rel.lhs, b, a)):
        if is_bare_pi(side) and cannot_be_pi(float(shown)):
            return RelationCheck(rel, "unknown", f"{rel}: π names a quantity here")
        counted = reading.counting or bool(units_of(other) & COUNT_UNITS)
        if counted and has_division(side) and is_whole_count(exact, shown, reading.round_up):
            return RelationCheck(rel, "true", f"{rel} holds as a count of whole items")
        if is_bracketed(side) and is_whole_count(exact, shown, round_up=False):
            return RelationCheck(rel, "true", f"{rel} holds reading [x] as the integer part")
    # each side in decimal or in one of the stated bases (binary to octal: `.110 = .6`)
    sides = [
        [(side, None)]
        + [
            (text, base)
            for base in reading.bases
            if (text := read_in_base(side, base, reading.bases)) is not None
        ]
        for side in (rel.lhs, rel.rhs)
    ]
    for (lhs, left), (rhs, right) in itertools.product(*sides):
        if (left or right) and check_relation(
            Relation(lhs, rhs, rel.op, rel.source)
        ).verdict == "true":
            named = " and ".join(sorted({f"base {b}" for b in (left, right) if b}))
            return RelationCheck(rel, "true", f"{rel} holds with numerals in {named}")
    return None


def format_signed(value: Value) -> str:
    """A value as text with its sign, for details that quote values."""
    text = format_value(value)
    return f"-{text}" if value < 0 else text


def definitions(known: Sequence[Relation]) -> dict[str, Value]:
    """Values of single variables that earlier relations establish unambiguously."""
    return dict(_definitions(tuple(known)))


@lru_cache(maxsize=256)
def _definitions(known: tuple[Relation, ...]) -> dict[str, Value]:
    # Each relation of a step is checked against the same earlier ones: solved once per step
    # (a relation's text is all the solving reads, and callers get a copy).
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
    if any(latex.function_call(n).search(text) for n in names if len(n) == 1):
        return RelationCheck(rel, "unknown", f"{rel}: reads like function notation")
    check = check_relation(rel, {n: values[n] for n in names})
    shown = ", ".join(f"{n} = {format_signed(values[n])}" for n in sorted(names))
    return RelationCheck(rel, check.verdict, f"{check.detail} with {shown}")


def _hedged(step: str, rel: Relation) -> bool:
    """ "1 = 3 + 4 is clearly not true", "plugging in 1 ...": the step rejects or tests the
    relation. Only the relation's own sentence and what follows it count: "So that's not it
    either. Let's try 35: ..." rejects the previous candidate, not the new arithmetic."""
    at = step.find(rel.source) if rel.source else -1
    if at < 0:
        return _HEDGE.search(step) is not None
    start = max(
        step.rfind(". ", 0, at),
        step.rfind("! ", 0, at),
        step.rfind("? ", 0, at),
        step.rfind("\n", 0, at),
        step.rfind("。", 0, at),
    )
    return _HEDGE.search(step[start + 1 :]) is not None


def check_step(step: str, config: StepConfig = StepConfig(), context: str = "") -> StepCheck:
    """Check every closed relation of a step; never raises, work is bounded by `config`.

    Arithmetic stated in words ("divide 6 into 54 to get 9") counts as relations too
    (`scoring.parse.prose_arithmetic`).

    Relations are not substituted into each other within a step: steps that try cases
    (`if x = 0 then y^2 = -1, no solution`) would read as contradictions. The step's words, and
    `context` (the problem, earlier steps) for a base they name, set how relations are read
    (`scoring.parse.step_context`).
    """
    stated = extract_relations(step)
    relations = [
        r for r in stated + prose_relations(step) if not states_remainder(r.rhs)
    ] + remainder_relations(step)
    checks: list[RelationCheck] = []
    skipped = 0
    for i, rel in enumerate(relations):
        if i >= config.max_relations:
            skipped = len(relations) - i
            break
        check = check_relation(rel)
        if check.verdict == "false":  # only then do the step's words matter: read them lazily
            check = check_relation(rel, reading=read_context(step, context))
        checks.append(check)
    checks.extend(_prose_identities(step))
    note = f"; {skipped} relation(s) not checked (budget)" if skipped else ""
    if not skipped and len(stated) >= MAX_RELATIONS:
        note = f"; only the first {MAX_RELATIONS} relations are checked (budget)"
    if any(c.verdict == "false" and _hedged(step, c.relation) for c in checks):
        checks = [
            replace(c, verdict="unknown", detail=f"{c.detail}, but the step rejects or tests it")
            if c.verdict == "false" and _hedged(step, c.relation)
            else c
            for c in checks
        ]
    false = [c for c in checks if c.verdict == "false"]
    if false:
        return StepCheck(checks, "false", "; ".join(c.detail for c in false) + note)
    true = [c for c in checks if c.verdict == "true"]
    if true:
        return StepCheck(checks, "true", "; ".join(c.detail for c in true) + note)
    return StepCheck(
        checks, "unknown", ("no closed relation to check" if checks else "no relation found") + note
    )
