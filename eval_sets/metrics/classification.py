"""Binary classification metrics for ReasonEval's MR-MATH protocol and ProcessBench.

Labels are 0/1 (1 = the positive class the caller chose); scores are any real numbers where
larger means "more positive". AUC is the Mann-Whitney statistic with ties counted as one half.
"""

from __future__ import annotations

from collections.abc import Sequence

from eval_sets.metrics.scores import average_ranks
from eval_sets.plugins import register_metric


@register_metric("auc")
def auc(labels: Sequence[int], scores: Sequence[float]) -> float | None:
    """ROC AUC from ranks (ties averaged); None unless both classes are present."""
    if len(labels) != len(scores):
        raise ValueError(f"labels and scores lengths differ ({len(labels)} vs {len(scores)})")
    pos = sum(1 for y in labels if y)
    neg = len(labels) - pos
    if pos == 0 or neg == 0:
        return None
    ranks = average_ranks(scores)
    rank_sum = sum(r for r, y in zip(ranks, labels, strict=True) if y)
    return (rank_sum - pos * (pos + 1) / 2) / (pos * neg)


def f1_for(labels: Sequence[int], preds: Sequence[int], positive: int) -> float:
    """F1 of one class; 0 when the class is never predicted nor present."""
    tp = sum(1 for y, p in zip(labels, preds, strict=True) if y == positive and p == positive)
    fp = sum(1 for y, p in zip(labels, preds, strict=True) if y != positive and p == positive)
    fn = sum(1 for y, p in zip(labels, preds, strict=True) if y == positive and p != positive)
    return 2 * tp / (2 * tp + fp + fn) if tp else 0.0


@register_metric("macro_f1")
def macro_f1(labels: Sequence[int], preds: Sequence[int]) -> float | None:
    """Unweighted mean of the F1 of each class present in the gold labels or predictions."""
    if len(labels) != len(preds):
        raise ValueError(f"labels and predictions lengths differ ({len(labels)} vs {len(preds)})")
    if not labels:
        return None
    classes = sorted(set(labels) | set(preds))
    return sum(f1_for(labels, preds, c) for c in classes) / len(classes)


@register_metric("accuracy")
def accuracy(labels: Sequence[object], preds: Sequence[object]) -> float | None:
    """Share of predictions equal to their label; None for no items."""
    if len(labels) != len(preds):
        raise ValueError(f"labels and predictions lengths differ ({len(labels)} vs {len(preds)})")
    return sum(y == p for y, p in zip(labels, preds, strict=True)) / len(labels) if labels else None


def threshold(scores: Sequence[float], cut: float) -> list[int]:
    """1 where the score reaches the threshold (ReasonEval: validity >= 0.5 is valid)."""
    return [int(s >= cut) for s in scores]
