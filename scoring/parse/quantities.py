"""Quantities a step produces and uses, for offline Tree-of-Error dependencies (docs/architecture.md 4.4).

"A step depends on an earlier step whose results it uses." Results are read from relations
(right-hand sides, closed values, variables given a value) and from prose ("the answer is 29");
uses are every number and math variable the step mentions. Numbers are normalised through exact
arithmetic so `0.50`, `1/2` and `\\frac{1}{2}` meet as `0.5`, and `1,000` as `1000`.

Decisions (simple on purpose, to be improved later):
- a number that appears in the problem text never creates a dependency, even when an earlier step
  restated it: it is given, not derived;
- the trivial numbers 0, 1, 2 never create a dependency on their own;
- variables always can (`x = 4` in step 2 makes a later `2x + 1` depend on step 2);
- for each quantity the most recent earlier producer wins.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy

from scoring.parse.equations import extract_relations
from scoring.parse.lexicon import DECIMAL, LOOSE_GROUPED, latex, without_thousands_separators
from scoring.parse.mathspans import math_spans
from scoring.parse.numeric import Unevaluable, evaluate, format_value

TRIVIAL = frozenset({"0", "1", "2"})

_NUMBER = re.compile(r"(?<![A-Za-z\d.])" + DECIMAL)
_SUBSCRIPTED = re.compile(r"_\{?\w+\}?")
_VARIABLE = re.compile(latex.NAME_START + r"([A-Za-z])(?:_\{?(\w+)\}?)?(?![A-Za-z])")
_LET = re.compile(
    r"\b(?:let|call|denote)\s+\$?([A-Za-z])\$?\s+(?:be|denote|represent|stand)|设\s*\$?\\?\(?\s*([A-Za-z])",
    re.IGNORECASE,
)
_STATED = re.compile(
    r"(?:\b(?:is|are|equals|gives?|get|gets|got|was|makes|yields)\b|为|是|得|等于|共有?)\s*"
    r"(?:\\\$|\$|\\\(|【)?\s*(-?" + LOOSE_GROUPED + ")"
)


@dataclass(frozen=True)
class Quantities:
    """Normalised numbers (unsigned) and variable names a step derives and mentions."""

    produced: tuple[str, ...]
    used: tuple[str, ...]


def _number(text: str) -> str | None:
    try:
        return format_value(Fraction(text.replace(",", "")))
    except (ValueError, ZeroDivisionError):
        return None


def _closed_value(expr: sympy.Basic | None) -> str | None:
    if expr is None or expr.free_symbols:
        return None
    try:
        return format_value(evaluate(expr))
    except (Unevaluable, TypeError, ValueError, ArithmeticError):
        return None


def literal_numbers(text: str) -> list[str]:
    """The numbers written in `text`, normalised (`1,000` -> `1000`, `0.50` -> `0.5`)."""
    return list(_literal_numbers(text))


@lru_cache(maxsize=8192)
def _literal_numbers(text: str) -> tuple[str, ...]:
    # Every check reads the numbers of the same steps; cached, each step is scanned once.
    text = without_thousands_separators(text)
    return tuple(
        n for m in _NUMBER.finditer(_SUBSCRIPTED.sub(" ", text)) if (n := _number(m.group()))
    )


def _variables(step: str) -> list[str]:
    names: list[str] = []
    for start, end in math_spans(step):
        span = latex.COMMAND_NAME.sub(" ", step[start:end])
        names.extend(
            m.group(1) + (f"_{m.group(2)}" if m.group(2) else "") for m in _VARIABLE.finditer(span)
        )
    return names


def _ordered(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


@lru_cache(maxsize=4096)
def extract_quantities(step: str) -> Quantities:
    """What a step derives (`produced`) and what it mentions (`used`). Never raises."""
    try:
        relations = extract_relations(step)
    except (RecursionError, ValueError):  # pragma: no cover - extract_relations never raises
        relations = []
    produced: list[str] = []
    used: list[str] = literal_numbers(step) + _variables(step)
    for rel in relations:
        used.extend(
            s.name for e in (rel.lhs_expr, rel.rhs_expr) if e is not None for s in e.free_symbols
        )
        for expr in (rel.lhs_expr, rel.rhs_expr):
            if (value := _closed_value(expr)) is not None:
                used.append(value)
        if rel.op not in ("=", "approx"):
            continue
        if (value := _closed_value(rel.rhs_expr)) is not None:
            produced.append(value)
            if isinstance(rel.lhs_expr, sympy.Symbol):
                produced.append(rel.lhs_expr.name)
        elif isinstance(rel.rhs_expr, sympy.Symbol) and _closed_value(rel.lhs_expr) is not None:
            produced.append(rel.rhs_expr.name)
    for m in _LET.finditer(step):
        produced.append(m.group(1) or m.group(2))
    for m in _STATED.finditer(step):
        if (value := _number(m.group(1).lstrip("-"))) is not None:
            produced.append(value)
    return Quantities(_ordered(produced), _ordered(used))


def dependencies(steps: Sequence[str], problem: str = "") -> list[list[int]]:
    """For each step (0-based), the earlier steps whose produced quantities it uses."""
    given = set(literal_numbers(problem)) | TRIVIAL
    quantities = [extract_quantities(step) for step in steps]
    latest: dict[str, int] = {}  # quantity -> most recent producing step
    result: list[list[int]] = []
    for j, q in enumerate(quantities):
        deps = {latest[u] for u in q.used if u in latest and u not in given}
        result.append(sorted(deps))
        for p in q.produced:
            if p not in given:
                latest[p] = j
    return result
