"""The math-verify worker process: parses and compares answers under a memory cap.

Runs in its own process because math-verify's own timeouts rely on `signal` (main thread only)
and some inputs make sympy run for minutes or exhaust memory; the parent kills this process at
its deadline, and `RLIMIT_AS` turns runaway allocations into a MemoryError here, not an OOM kill.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import threading
import time

_DELIMITED = ("$", "\\(", "\\[", "\\boxed")


def wrap(answer: str) -> str:
    """math-verify extracts LaTeX only between delimiters: wrap a bare answer so it is seen."""
    text = answer.replace("\\$", "").strip()
    if any(mark in text for mark in _DELIMITED):
        return text
    return f"${text}$"


def compare(golds: list[str], pred: str, precision: int) -> bool | None:
    """True if `pred` equals any gold, False if none does, None when nothing could be parsed."""
    from math_verify import parse, verify

    parsed_pred = parse(wrap(pred), parsing_timeout=None)
    if not parsed_pred:
        return None
    decided = False
    for gold in golds:
        parsed_gold = parse(wrap(gold), parsing_timeout=None)
        if not parsed_gold:
            continue
        decided = True
        same = verify(parsed_gold, parsed_pred, float_rounding=precision, timeout_seconds=None)
        if same and _same_scale(parsed_gold, parsed_pred):
            return True
    return False if decided else None


def _same_scale(gold: list[object], pred: list[object]) -> bool:
    """False for nonzero numbers a factor apart: rounding to 6 decimals equates 1/2004! and 1/2006!."""
    import sympy

    a, b = gold[0], pred[0]
    if not (isinstance(a, sympy.Expr) and isinstance(b, sympy.Expr) and a.is_number and b.is_number):
        return True
    if a.is_zero or b.is_zero:
        return True
    try:
        return abs(complex(sympy.N(a / b, 15)) - 1) <= 0.25
    except (TypeError, ValueError):
        return True


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


def serve(memory_mb: int) -> None:
    """Answer JSON lines `[golds, pred, precision]` on stdin with `{"result": ...}` lines."""
    _die_with_parent(os.getppid())
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    import math_verify  # noqa: F401  (import before answering "ready": it takes a second)

    _reply("ready")
    for line in sys.stdin:
        try:
            golds, pred, precision = json.loads(line)
            result: bool | None | str = compare(golds, pred, precision)
        except MemoryError:
            result = "memory"
        except Exception:  # noqa: BLE001  (any parser failure means "undecided", never a crash)
            result = None
        _reply(result)


def _reply(result: bool | None | str) -> None:
    sys.stdout.write(json.dumps({"result": result}) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    serve(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
