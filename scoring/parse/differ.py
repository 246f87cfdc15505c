"""Whether two expressions are the same function of their variables, decided numerically.

Equality is tested Schwartz-Zippel style (Schwartz 1980): both expressions are evaluated with the
bounded evaluator of `scoring.parse.numeric` at a few fixed rational points; identical functions
agree everywhere, different ones almost never agree. Reading only, it decides no label: the
symbolic step check (`scoring.parse.equations`) and the rewrite check
(`scoring.judge.checks.rewrite_check`) both ask it.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from scoring.parse.mathparse import parse_math
from scoring.parse.numeric import Unevaluable, Value, evaluate, exact, relative_difference

MAX_SYMBOLS = 6
_POINTS: tuple[tuple[Fraction, ...], ...] = (
    (Fraction(7, 5), Fraction(-11, 7), Fraction(13, 6), Fraction(5, 9), Fraction(-17, 8),
     Fraction(19, 11)),
    (Fraction(-3, 4), Fraction(23, 10), Fraction(-5, 3), Fraction(29, 12), Fraction(2, 7),
     Fraction(-31, 13)),
    (Fraction(37, 14), Fraction(4, 9), Fraction(-41, 15), Fraction(-6, 5), Fraction(43, 16),
     Fraction(9, 10)),
)
_TOLERANCE = 1e-6


def value_at(expr: sympy.Basic, point: dict[str, Value]) -> Value | None:
    """The value of `expr` at `point`; None when it cannot be evaluated within bounds."""
    try:
        return evaluate(expr, point)
    except (Unevaluable, TypeError, ValueError, ArithmeticError, OverflowError, RecursionError):
        return None


def differ(a: str, b: str, scaled: bool = False) -> bool | None:
    """True when the two expressions are different functions; None when we cannot tell.

    With `scaled`, a constant non-zero factor between them does not count as a difference.
    """
    ea, eb = parse_math(a), parse_math(b)
    if ea is None or eb is None:
        return None
    names = sorted({s.name for s in ea.free_symbols | eb.free_symbols})
    if len(names) > MAX_SYMBOLS:
        return None
    ratios: list[Fraction] = []
    decided = 0
    for probe in _POINTS if names else _POINTS[:1]:
        point: dict[str, Value] = dict(zip(names, probe, strict=False))
        # Compared exactly: values may be far beyond float range (`float()` overflowed here).
        va, vb = value_at(ea, point), value_at(eb, point)
        if va is None or vb is None or (xa := exact(va)) is None or (xb := exact(vb)) is None:
            continue
        decided += 1
        if scaled:
            if xa == 0 or xb == 0:
                if xa != xb:
                    return True
                continue
            ratios.append(xa / xb)
        elif relative_difference(xa, xb) <= _TOLERANCE:
            return False
    if decided < (2 if names else 1):
        return None
    if scaled:
        if not ratios:
            return False
        return any(relative_difference(r, ratios[0]) > _TOLERANCE for r in ratios)
    return True
