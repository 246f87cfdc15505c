"""Bounded numeric evaluation of unevaluated sympy trees (docs/architecture.md 4.7).

sympy's own evaluation has no size limits (`9^{9^{9^{9}}}` would never return) and math-verify's
timeout needs signals. Instead we walk the tree ourselves: exact `Fraction` arithmetic while it stays
rational (so `0.1 + 0.2 = 0.3` is exactly true), floats after irrational steps, and every power,
factorial and intermediate result is size-checked *before* it is computed. Anything outside the
bounds raises `Unevaluable`, which callers turn into an "unknown" verdict.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import cast

import sympy

Value = Fraction | float

MAX_BITS = 20_000
MAX_FACTORIAL = 1_000
MAX_DEPTH = 60
MAX_FLOAT = 1e300

_FLOAT_FUNCS = {
    sympy.sin: math.sin,
    sympy.cos: math.cos,
    sympy.tan: math.tan,
    sympy.asin: math.asin,
    sympy.acos: math.acos,
    sympy.atan: math.atan,
    sympy.exp: math.exp,
    sympy.log: math.log,
}


class Unevaluable(ValueError):
    """The expression has free symbols, is too large, or is not a real number."""


def _check(value: Value) -> Value:
    if isinstance(value, Fraction):
        if max(value.numerator.bit_length(), value.denominator.bit_length()) > MAX_BITS:
            raise Unevaluable("intermediate result too large")
        return value
    if math.isnan(value) or abs(value) > MAX_FLOAT:
        raise Unevaluable("not a finite real number")
    return value


def _iroot(n: int, k: int) -> int | None:
    """Exact integer k-th root of n >= 0, or None."""
    if n < 2:
        return n
    guess = round(n ** (1.0 / k)) if n.bit_length() < 1000 else None
    if guess is None:
        return None
    for cand in (guess - 1, guess, guess + 1):
        if cand >= 0 and cand**k == n:
            return cand
    return None


def _power(base: Value, exp: Value) -> Value:
    if isinstance(exp, Fraction) and exp.denominator == 1 and isinstance(base, Fraction):
        n = exp.numerator
        size = max(base.numerator.bit_length(), base.denominator.bit_length())
        if abs(n) * size > MAX_BITS:
            raise Unevaluable("power too large")
        if base == 0 and n < 0:
            raise Unevaluable("division by zero")
        return base**n
    if isinstance(exp, Fraction) and isinstance(base, Fraction) and exp.denominator <= 12:
        k, sign = exp.denominator, 1
        if base < 0:
            if k % 2 == 0:
                raise Unevaluable("even root of a negative number")
            base, sign = -base, -1
        num, den = _iroot(base.numerator, k), _iroot(base.denominator, k)
        if num is not None and den is not None:
            return _power(Fraction(sign * num, den), Fraction(exp.numerator))
        return sign * _float_power(to_float(base), to_float(exp))
    if base < 0:
        raise Unevaluable("fractional power of a negative number")
    return _float_power(to_float(base), to_float(exp))


def _float_power(base: float, exp: float) -> float:
    if base > 0 and abs(exp * math.log10(base)) > 300:
        raise Unevaluable("power too large")
    try:
        return _check(math.pow(base, exp))  # type: ignore[return-value]
    except (OverflowError, ValueError, ZeroDivisionError) as exc:
        raise Unevaluable(str(exc)) from exc


def _integer(value: Value, what: str) -> int:
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise Unevaluable(f"{what} of a non-integer")


def _eval(expr: sympy.Basic, values: Mapping[str, Value], depth: int) -> Value:
    if depth > MAX_DEPTH:
        raise Unevaluable("nested too deeply")
    if isinstance(expr, sympy.Rational):
        return Fraction(int(expr.p), int(expr.q))
    if isinstance(expr, sympy.Float):
        return Fraction(str(expr))
    if expr is sympy.pi:
        return math.pi
    if isinstance(expr, sympy.Symbol):
        if expr.name in values:
            return values[expr.name]
        raise Unevaluable(f"free symbol {expr.name}")
    return _apply(expr, [_eval(a, values, depth + 1) for a in expr.args])


def _apply(expr: sympy.Basic, args: list[Value]) -> Value:
    """The value of `expr`'s own operation on its arguments' values."""
    if isinstance(expr, sympy.Add):
        return _check(_sum(args))
    if isinstance(expr, sympy.Mul):
        result: Value = Fraction(1)
        for a in args:
            result = _check(result * a)
        return result
    if isinstance(expr, sympy.Pow):
        return _check(_power(args[0], args[1]))
    if isinstance(expr, sympy.factorial):
        n = _integer(args[0], "factorial")
        if not 0 <= n <= MAX_FACTORIAL:
            raise Unevaluable("factorial out of range")
        return Fraction(math.factorial(n))
    if isinstance(expr, sympy.binomial):
        n, k = _integer(args[0], "binomial"), _integer(args[1], "binomial")
        if not 0 <= n <= 10 * MAX_FACTORIAL:
            raise Unevaluable("binomial out of range")
        return Fraction(math.comb(n, k) if k >= 0 else 0)
    if isinstance(expr, sympy.Abs):
        return cast(Value, abs(args[0]))  # abs of a union is `object` to mypy
    if isinstance(expr, (sympy.floor, sympy.ceiling)):
        rounded = math.floor(args[0]) if isinstance(expr, sympy.floor) else math.ceil(args[0])
        return Fraction(rounded)
    func = _FLOAT_FUNCS.get(type(expr))
    if func is not None and len(args) == 1:
        try:
            return _check(func(to_float(args[0])))
        except (OverflowError, ValueError) as exc:
            raise Unevaluable(str(exc)) from exc
    raise Unevaluable(f"cannot evaluate {type(expr).__name__}")


def _sum(args: list[Value]) -> Value:
    total: Value = Fraction(0)
    for a in args:
        total = total + a
    return total


def evaluate(expr: sympy.Basic, values: Mapping[str, Value] | None = None) -> Value:
    """The real value of a closed expression (after substituting `values`).

    Raises:
        Unevaluable: free symbols remain, bounds are exceeded, or the value is not real.
    """
    try:
        return _eval(expr, values or {}, 0)
    except (ZeroDivisionError, OverflowError, RecursionError) as exc:
        raise Unevaluable(str(exc) or type(exc).__name__) from exc


Evaluator = Callable[[Value], Value]


def evaluator(expr: sympy.Basic, name: str) -> Evaluator:
    """`v -> evaluate(expr, {name: v})`, for evaluating one expression at many points (a root
    search): the parts that do not mention `name` are evaluated once, here, and a part that
    cannot be evaluated raises at every point, as it would have.

    Raises (from the returned function): Unevaluable, as `evaluate`.
    """
    run = _compile(expr, name, 0)

    def at(value: Value) -> Value:
        try:
            return run(value)
        except (ZeroDivisionError, OverflowError, RecursionError) as exc:
            raise Unevaluable(str(exc) or type(exc).__name__) from exc

    return at


def _constant(expr: sympy.Basic, depth: int) -> Evaluator:
    try:
        value = _eval(expr, {}, depth)
    except Exception as exc:  # noqa: BLE001  (raised again at each point, as `_eval` would)
        failure = exc

        def fails(_: Value) -> Value:
            raise failure.with_traceback(None)

        return fails
    return lambda _: value


def _compile(expr: sympy.Basic, name: str, depth: int) -> Evaluator:
    """`_eval` of `expr` at `depth` as a function of `name`'s value."""
    if depth > MAX_DEPTH or not any(
        isinstance(a, sympy.Symbol) and a.name == name for a in sympy.preorder_traversal(expr)
    ):
        return _constant(expr, depth)
    if isinstance(expr, sympy.Symbol):
        return lambda value: value
    parts = [_compile(a, name, depth + 1) for a in expr.args]
    return lambda value: _apply(expr, [part(value) for part in parts])


def to_float(value: Value) -> float:
    """`float(value)` that never raises: a rational beyond float range (10^400) becomes ±inf.

    `float()` of such a `Fraction` raises OverflowError; values here may be up to `MAX_BITS`
    bits, so every conversion of an unbounded value goes through this.
    """
    try:
        return float(value)
    except OverflowError:
        return math.inf if value > 0 else -math.inf


def exact(value: Value) -> Fraction | None:
    """The value as a `Fraction` (floats exactly), None for a float that is not finite."""
    if isinstance(value, Fraction):
        return value
    return Fraction(value) if math.isfinite(value) else None


def relative_difference(a: Value, b: Value) -> float:
    """|a - b| / max(1, |a|, |b|), computed exactly, so 10^400 and 10^400 + 1 compare right and
    nothing overflows; inf when a side is not finite and the two differ."""
    ea, eb = exact(a), exact(b)
    if ea is None or eb is None:
        return 0.0 if a == b else math.inf
    return to_float(abs(ea - eb) / max(Fraction(1), abs(ea), abs(eb)))


def format_value(value: Value) -> str:
    """Canonical text of a value, so 0.50, 1/2 and \\frac{1}{2} all read `0.5` (signs dropped)."""
    if isinstance(value, float):
        return f"{abs(value):.6g}"
    value = abs(value)
    if value.denominator == 1:
        return str(value.numerator)
    den = value.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den == 1 and value.denominator <= 10**6:
        digits = 0
        while (value * 10**digits).denominator != 1:
            digits += 1
        if digits <= 15:
            text = str(value.numerator * 10**digits // value.denominator).rjust(digits + 1, "0")
            return f"{text[:-digits]}.{text[-digits:]}"
    return f"{value.numerator}/{value.denominator}"
