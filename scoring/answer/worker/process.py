"""The math-verify worker process: parses and compares answers under a CPU budget and a memory cap.

Runs in its own process because math-verify's own timeouts rely on `signal` (main thread only)
and some inputs make sympy run for minutes or exhaust memory. Each comparison gets a budget of
*CPU* seconds (an `ITIMER_PROF` timer), not wall seconds: on a loaded machine a wall-clock
deadline cut the same comparison short on one run and not on the next, and the answer verdict,
hence the step labels, changed between identical requests. The reply is then "timeout" and the
worker exits (a half-finished sympy computation may leave its caches inconsistent); the parent
keeps a generous wall-clock deadline of its own for work no signal can interrupt, and
`RLIMIT_AS` turns runaway allocations into a MemoryError here, not an OOM kill.
"""

from __future__ import annotations

import json
import math
import os
import re
import resource
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType

from scoring.answer.solution_sets import same_solution_set
from scoring.parse.differ import (
    ANSWER_POINTS,
    POSITIVE_POINTS,
    Coordinate,
    Sample,
    agree_at_points,
    differ_at_points,
)

# The constant of integration as math-verify reads it (it lowercases `C`): c, c_1, c_{1}.
_CONSTANT = re.compile(r"^c(?:_\{?\d\}?)?$")

_DELIMITED = ("$", "\\(", "\\[", "\\boxed")


def wrap(answer: str) -> str:
    """math-verify extracts LaTeX only between delimiters: wrap a bare answer so it is seen."""
    text = answer.replace("\\$", "").strip()
    if any(mark in text for mark in _DELIMITED):
        return text
    return f"${text}$"


def compare(golds: list[str], pred: str, precision: int) -> bool | None | str:
    """True if `pred` equals any gold, False if none does, None when nothing could be parsed;
    the name of a reading of `AFTER_MATH_VERIFY` when math-verify equates none but that reading
    equates one."""
    from math_verify import parse, verify

    parsed_pred = parse(wrap(pred), parsing_timeout=None)
    if not parsed_pred:
        return None
    decided = False
    equated: set[str] = set()
    for gold in golds:
        parsed_gold = parse(wrap(gold), parsing_timeout=None)
        if not parsed_gold:
            continue
        decided = True
        if not differ_at_sample_points(parsed_gold, parsed_pred):
            same = verify(parsed_gold, parsed_pred, float_rounding=precision, timeout_seconds=None)
            if same and _same_scale(parsed_gold, parsed_pred):
                return True
        pair = Parsed(gold, parsed_gold), Parsed(pred, parsed_pred)
        equated |= {
            name for name, reads in AFTER_MATH_VERIFY if name not in equated and reads(*pair)
        }
    for name, _ in AFTER_MATH_VERIFY:
        if name in equated:
            return name
    return False if decided else None


@dataclass(frozen=True)
class Parsed:
    """An answer as written and as math-verify parsed it."""

    text: str
    values: list[object]


def _transcendental(expr: object) -> bool:
    """A function application (sin, log, exp, ...) or a root: the forms sympy simplifies slowly."""
    import sympy

    return bool(expr.atoms(sympy.Function)) or any(  # type: ignore[attr-defined]
        not p.exp.is_integer
        for p in expr.atoms(sympy.Pow)  # type: ignore[attr-defined]
    )


def differ_at_sample_points(gold: list[object], pred: list[object]) -> bool:
    """Whether two answers that are functions of their symbols, one of them with a function or
    a root in it, take different values at every sample point (`scoring.parse.differ`,
    `ANSWER_POINTS`): then they are different functions and no simplification can equate them,
    so sympy's (seconds, for trigonometric or logarithmic forms) need not run. Numbers,
    polynomials, equations, sets, intervals and matrices, and any evaluation that fails or is
    not finite, say nothing here and go to `verify`: a False from this screen is only ever "not
    shown different"."""
    import sympy

    a, b = gold[0], pred[0]
    if not (isinstance(a, sympy.Expr) and isinstance(b, sympy.Expr)):
        return False
    if not (_transcendental(a) or _transcendental(b)):
        # polynomials, and words read as letter products (`verify` equates "\\text{odd}" with
        # "odd", which sympy reads as d*d*o): `verify` is quick there
        return False
    symbols = sorted(a.free_symbols | b.free_symbols, key=str)
    if not symbols:
        return False
    return differ_at_points(_at(a, symbols), _at(b, symbols), len(symbols), ANSWER_POINTS) is True


def _at(expr: object, symbols: list[object]) -> Callable[[tuple[Coordinate, ...]], Sample | None]:
    """`expr`'s value at a point (one coordinate per symbol, in order) by sympy in 15-digit
    floats; None when it fails or is not finite."""
    import sympy

    def value(probe: tuple[Coordinate, ...]) -> Sample | None:
        values = {symbol: sympy.Float(v) for symbol, v in zip(symbols, probe, strict=False)}
        try:
            found = complex(expr.evalf(15, subs=values))  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - sympy fails in many ways; the reading then says nothing
            return None
        return found if math.isfinite(found.real) and math.isfinite(found.imag) else None

    return value


def agree_on_positive_values(gold: Parsed, pred: Parsed) -> bool:
    """Whether two formulas in the same letters take the same value at every sample point of the
    positive reals (`scoring.parse.differ.POSITIVE_POINTS`), where math-verify found them
    different.

    The letters of a final answer in words name lengths, angles, rates and counts, positive
    unless the answer says otherwise; math-verify leaves `arctan(2h/a)` and
    `arccos(a/sqrt(4h^2+a^2))` apart because they differ for a negative `a`, a difference no
    grader of a pyramid's angle marks. An answer that writes an absolute value or a sign has
    said otherwise (`|x|` against `x`), and is left to math-verify; so are numbers (no letter),
    equations, sets, matrices, and answers in different letters.
    """
    import sympy

    a, b = gold.values[0], pred.values[0]
    if not (isinstance(a, sympy.Expr) and isinstance(b, sympy.Expr)) or a.is_Matrix or b.is_Matrix:
        return False
    symbols = sorted(a.free_symbols, key=str)
    if not symbols or set(symbols) != b.free_symbols:
        return False
    if any(e.has(sympy.Abs, sympy.sign) for e in (a, b)):
        return False
    return agree_at_points(_at(a, symbols), _at(b, symbols), len(symbols), POSITIVE_POINTS)


def _integration_constant(expr: object) -> object | None:
    """The one symbol that `expr` adds as a constant of integration (`+ C`), else None."""
    import sympy

    found = [s for s in expr.free_symbols if _CONSTANT.match(s.name)]  # type: ignore[attr-defined]
    if len(found) != 1 or sympy.diff(expr, found[0]) != 1:
        return None
    return found[0]


def differ_by_a_constant(gold: Parsed, pred: Parsed) -> bool:
    """Whether two antiderivatives, each written with its constant of integration (`+ C`),
    differ by a constant where math-verify found them different.

    Two antiderivatives of one function differ by a constant, so a grader accepts either:
    `ln|tan(x/2 + pi/8)| + C` and the same integral written through `tan(x/2)`. Tested at the
    screen's sample points (`ANSWER_POINTS`, within (0, 1.2), where a piecewise constant seldom
    jumps): the difference of the two without their constants takes one value at every point.
    Answers without a constant of integration, or in different letters, are not read here.
    """
    import sympy

    a, b = gold.values[0], pred.values[0]
    if not (isinstance(a, sympy.Expr) and isinstance(b, sympy.Expr)):
        return False
    ca, cb = _integration_constant(a), _integration_constant(b)
    if ca is None or cb is None:
        return False
    fa, fb = a.subs(ca, 0), b.subs(cb, 0)
    symbols = sorted(fa.free_symbols, key=str)
    if not symbols or set(symbols) != fb.free_symbols:
        return False
    gap = _at(fa - fb, symbols)
    first = gap(ANSWER_POINTS.points[0])
    return first is not None and agree_at_points(gap, lambda _: first, len(symbols), ANSWER_POINTS)


def _same_scale(gold: list[object], pred: list[object]) -> bool:
    """False for nonzero numbers a factor apart: rounding to 6 decimals equates 1/2004! and 1/2006!."""
    import sympy

    a, b = gold[0], pred[0]
    if not (
        isinstance(a, sympy.Expr) and isinstance(b, sympy.Expr) and a.is_number and b.is_number
    ):
        return True
    if a.is_zero or b.is_zero:
        return True
    try:
        return abs(complex(sympy.N(a / b, 15)) - 1) <= 0.25
    except (TypeError, ValueError):
        return True


def same_set(gold: Parsed, pred: Parsed) -> bool:
    """Whether an interval and a condition, or two conditions, are one set of reals
    (`scoring.answer.solution_sets`), where math-verify found them different."""
    from math_verify import parse

    def read(text: str) -> list[object]:
        return list(parse(text, parsing_timeout=None))

    return same_solution_set((gold.text, gold.values), (pred.text, pred.values), read)


# Readings the worker tries where math-verify finds two parsed answers different, in order;
# `compare` answers with the name of the first that equates them (`scoring.answer.worker.pool
# .WORKER_READINGS` names them for the parent; `scoring.answer.routes` routes them).
AFTER_MATH_VERIFY: tuple[tuple[str, Callable[[Parsed, Parsed], bool]], ...] = (
    ("antiderivative", differ_by_a_constant),
    ("positive_values", agree_on_positive_values),
    ("solution_set", same_set),
)


def _die_with_parent(parent: int, every: float = 0.5) -> None:
    """Exit when the parent process is gone (this process is then re-parented).

    Not PR_SET_PDEATHSIG: that fires when the parent *thread* that started us exits, and a pool
    starts its workers from short-lived threads. A thread also works while `compare` is busy.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


class CpuBudgetExceeded(BaseException):
    """Raised by the CPU timer. A BaseException: math-verify catches every `Exception` and would
    turn it into "not equal"."""


def _on_timer(_signum: int, _frame: FrameType | None) -> None:
    raise CpuBudgetExceeded


def within_cpu_budget(
    seconds: float | None, golds: list[str], pred: str, precision: int
) -> bool | None | str:
    """`compare` stopped after `seconds` of CPU time (None: no budget); "timeout" if it was."""
    if seconds:
        signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        return compare(golds, pred, precision)
    except CpuBudgetExceeded:
        return "timeout"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def _warm() -> None:
    """One comparison before "ready": the first parse loads math-verify's grammars, which must
    not count against the budget of the first real comparison."""
    compare(["\\frac{1}{2}"], "0.5", 6)


def serve(memory_mb: int) -> None:
    """Answer JSON lines `[golds, pred, precision, cpu_seconds]` on stdin with `{"result": ...}`."""
    _die_with_parent(os.getppid())
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    signal.signal(signal.SIGPROF, _on_timer)
    _warm()
    _reply("ready")
    for line in sys.stdin:
        try:
            golds, pred, precision, *budget = json.loads(line)
            result = within_cpu_budget(budget[0] if budget else None, golds, pred, precision)
        except CpuBudgetExceeded:  # the timer fired just as `compare` returned
            result = "timeout"
        except MemoryError:
            result = "memory"
        except Exception:  # noqa: BLE001  (any parser failure means "undecided", never a crash)
            result = None
        _reply(result)
        if result == "timeout":
            os._exit(0)


def _reply(result: bool | None | str) -> None:
    sys.stdout.write(json.dumps({"result": result}) + "\n")
    sys.stdout.flush()
