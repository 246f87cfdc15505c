"""ProcessBench's metric: find the earliest erroneous step, or say there is none.

Gold and prediction are the 1-based earliest error step, or None for a fully correct solution
(ProcessBench writes -1 and 0-based indices; loaders convert). Accuracy is measured separately
on erroneous and on correct solutions and F1 is their harmonic mean.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eval_sets.plugins import register_metric


@dataclass(frozen=True)
class ProcessBenchScore:
    error_accuracy: float | None
    correct_accuracy: float | None
    f1: float | None


def processbench_score(pred: Sequence[int | None], gold: Sequence[int | None]) -> ProcessBenchScore:
    """Accuracy on the erroneous and on the correct solutions, and their F1 (None unless both kinds
    are present)."""
    if len(pred) != len(gold):
        raise ValueError(f"prediction and gold lengths differ ({len(pred)} vs {len(gold)})")
    err = [p == g for p, g in zip(pred, gold, strict=True) if g is not None]
    ok = [p is None for p, g in zip(pred, gold, strict=True) if g is None]
    acc_err = sum(err) / len(err) if err else None
    acc_ok = sum(ok) / len(ok) if ok else None
    if acc_err is None or acc_ok is None:
        f1 = None
    else:
        f1 = 0.0 if acc_err + acc_ok == 0 else 2 * acc_err * acc_ok / (acc_err + acc_ok)
    return ProcessBenchScore(acc_err, acc_ok, f1)


@register_metric("processbench_f1")
def processbench_f1(pred: Sequence[int | None], gold: Sequence[int | None]) -> float | None:
    """Harmonic mean of the accuracy on erroneous and on correct solutions."""
    return processbench_score(pred, gold).f1
