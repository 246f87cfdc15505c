"""Whether two expressions are the same function of their variables, decided numerically.

Equality is tested Schwartz-Zippel style (Schwartz 1980): both expressions are evaluated at a
few fixed points; identical functions agree everywhere, different ones almost never agree.
`differ_at_points` is the one sample-point test of the project; its two users pass their own
`SamplePoints`:

- `differ` (here) reads step text: expressions parsed by `scoring.parse.mathparse` and evaluated
  exactly by the bounded evaluator of `scoring.parse.numeric` at rational points (`STEP_POINTS`).
  Reading only, it decides no label: the symbolic step check (`scoring.parse.equations`) and the
  rewrite check (`scoring.judge.checks.rewrite_check`) both ask it.
- the math-verify worker (`scoring.answer.worker`) screens final answers already parsed by
  math-verify, evaluated by sympy in floats (`ANSWER_POINTS`), before sympy simplifies them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import sympy

from scoring.parse.mathparse import parse_math
from scoring.parse.numeric import Unevaluable, Value, evaluate, exact, relative_difference

Coordinate = Fraction | float
Sample = Fraction | complex


@dataclass(frozen=True)
class SamplePoints:
    """Where two expressions are evaluated and how closely their values must agree.

    `points` holds one coordinate per variable (so its width bounds the variables compared);
    `tolerance` is relative, |a - b| / max(1, |a|, |b|). With `give_up_on_failure` a point where
    either side cannot be evaluated ends the test undecided; otherwise the point is skipped, and
    at least `min_decided` points (one for constants) must be evaluated on both sides.
    """

    points: tuple[tuple[Coordinate, ...], ...]
    tolerance: float
    give_up_on_failure: bool = False
    min_decided: int = 2


# Step text: exact rational arithmetic, so a point may be anywhere (negative, far from 0: a
# failed evaluation, e.g. a log of a negative number, is skipped); 1e-6 absorbs the floats of
# functions the evaluator computes in floating point.
STEP_POINTS = SamplePoints(
    points=(
        (
            Fraction(7, 5),
            Fraction(-11, 7),
            Fraction(13, 6),
            Fraction(5, 9),
            Fraction(-17, 8),
            Fraction(19, 11),
        ),
        (
            Fraction(-3, 4),
            Fraction(23, 10),
            Fraction(-5, 3),
            Fraction(29, 12),
            Fraction(2, 7),
            Fraction(-31, 13),
        ),
        (
            Fraction(37, 14),
            Fraction(4, 9),
            Fraction(-41, 15),
            Fraction(-6, 5),
            Fraction(43, 16),
            Fraction(9, 10),
        ),
    ),
    tolerance=1e-6,
)

# Final answers with a function or a root in them, evaluated by sympy in 15-digit floats: points
# in (0, 1.2), away from 0, 1, the integers and the poles of tan at pi/2, so roots and logarithms
# are defined and distinct per variable; any failed evaluation makes the screen say nothing,
# since it exists only to spare sympy work and must never tell equal answers apart.
ANSWER_POINTS = SamplePoints(
    points=(
        (0.3719, 0.6127, 0.8413, 0.2291, 0.5507, 0.7793),
        (1.1923, 0.4561, 0.2857, 0.9187, 0.6633, 0.3371),
        (0.5261, 1.0459, 0.6949, 0.4127, 0.2683, 0.8857),
    ),
    tolerance=1e-9,
    give_up_on_failure=True,
)

# Final answers math-verify calls different, evaluated as at `ANSWER_POINTS` but at five points
# spread over (0.3, 2.9): equality on the positive reals (`agree_on_positive_values` in
# `scoring.answer.worker`) needs every point to agree, so more points and a wider spread.
POSITIVE_POINTS = SamplePoints(
    points=(
        (0.4127, 1.3719, 2.2291, 0.8857, 1.7793, 2.6127),
        (1.8413, 0.5507, 1.1923, 2.4561, 0.3371, 1.6949),
        (2.7187, 2.0459, 0.6633, 1.4683, 2.3257, 0.9261),
        (1.0537, 2.8843, 1.9411, 0.3967, 1.2389, 2.1571),
        (2.3101, 0.7213, 2.7749, 1.6217, 0.5939, 1.3303),
    ),
    tolerance=1e-9,
    give_up_on_failure=True,
)

MAX_SYMBOLS = len(STEP_POINTS.points[0])


def _relative_gap(a: Sample, b: Sample) -> float:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return relative_difference(a, b)  # exact: values may be far beyond float range
    ca, cb = complex(a), complex(b)
    return abs(ca - cb) / max(1.0, abs(ca), abs(cb))


def differ_at_points(
    value_a: Callable[[tuple[Coordinate, ...]], Sample | None],
    value_b: Callable[[tuple[Coordinate, ...]], Sample | None],
    variables: int,
    config: SamplePoints,
    scaled: bool = False,
) -> bool | None:
    """True when two functions of `variables` variables differ at the sample points; False when
    they agree at one of them; None when too few points could be evaluated to tell.

    `value_a` and `value_b` give each side's value at a point (its coordinates in the order of
    the caller's variables), or None when it cannot be evaluated. With `scaled`, a constant
    non-zero factor between the two does not count as a difference.
    """
    if variables > len(config.points[0]):
        return None
    ratios: list[Sample] = []
    decided = 0
    for probe in config.points if variables else config.points[:1]:
        va = value_a(probe)
        vb = None if va is None else value_b(probe)
        if va is None or vb is None:
            if config.give_up_on_failure:
                return None
            continue
        decided += 1
        if scaled:
            if va == 0 or vb == 0:
                if va != vb:
                    return True
                continue
            ratios.append(va / vb)
        elif _relative_gap(va, vb) <= config.tolerance:
            return False
    if decided < (config.min_decided if variables else 1):
        return None
    if scaled:
        if not ratios:
            return False
        return any(_relative_gap(r, ratios[0]) > config.tolerance for r in ratios)
    return True


def agree_at_points(
    value_a: Callable[[tuple[Coordinate, ...]], Sample | None],
    value_b: Callable[[tuple[Coordinate, ...]], Sample | None],
    variables: int,
    config: SamplePoints,
) -> bool:
    """True only when both functions are evaluated at every sample point and agree at each: the
    strict counterpart of `differ_at_points`, which calls one agreeing point "not different"."""
    if not 0 < variables <= len(config.points[0]):
        return False
    for probe in config.points:
        va = value_a(probe)
        vb = None if va is None else value_b(probe)
        if va is None or vb is None or _relative_gap(va, vb) > config.tolerance:
            return False
    return True


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

    def at(expr: sympy.Basic) -> Callable[[tuple[Coordinate, ...]], Sample | None]:
        def value(probe: tuple[Coordinate, ...]) -> Sample | None:
            point: dict[str, Value] = dict(zip(names, probe, strict=False))
            found = value_at(expr, point)
            return None if found is None else exact(found)

        return value

    return differ_at_points(at(ea), at(eb), len(names), STEP_POINTS, scaled)
