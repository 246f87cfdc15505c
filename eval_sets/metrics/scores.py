"""StepMathAgent Table 3 metrics over 0-10 scores: AvgS, Pearson Corr, MSE, OR; plus Spearman.

OR: StepMathAgent names it the overlap ratio without a formula in what we have (docs/architecture.md 1 only
lists it). Our reading: the fraction of items whose predicted 0-10 score equals the gold score
exactly. `overlap_ratio` applied to the binary scores gives the 0/1 agreement.
All functions are pure; an undefined value (empty input, constant series) is None.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from eval_sets.plugins import register_metric


def _check(pred: Sequence[float], gold: Sequence[float]) -> None:
    if len(pred) != len(gold):
        raise ValueError(f"prediction and gold lengths differ ({len(pred)} vs {len(gold)})")


@register_metric("avg_score")
def avg_score(scores: Sequence[float]) -> float | None:
    """AvgS: the mean score (of the predictions, or of the gold for the human row)."""
    return sum(scores) / len(scores) if scores else None


@register_metric("pearson")
def pearson(pred: Sequence[float], gold: Sequence[float]) -> float | None:
    """Pearson's r; None when either series is constant or has fewer than two items."""
    _check(pred, gold)
    n = len(pred)
    if n < 2:
        return None
    mp, mg = sum(pred) / n, sum(gold) / n
    cov = sum((p - mp) * (g - mg) for p, g in zip(pred, gold, strict=True))
    vp = sum((p - mp) ** 2 for p in pred)
    vg = sum((g - mg) ** 2 for g in gold)
    if vp == 0 or vg == 0:
        return None
    return cov / math.sqrt(vp * vg)


def average_ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, tied values sharing the mean of their ranks."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


@register_metric("spearman")
def spearman(pred: Sequence[float], gold: Sequence[float]) -> float | None:
    """Spearman's rho: Pearson's r of the tie-averaged ranks."""
    _check(pred, gold)
    return pearson(average_ranks(pred), average_ranks(gold))


@register_metric("mse")
def mse(pred: Sequence[float], gold: Sequence[float]) -> float | None:
    """Mean squared error."""
    _check(pred, gold)
    if not pred:
        return None
    return sum((p - g) ** 2 for p, g in zip(pred, gold, strict=True)) / len(pred)


@register_metric("overlap_ratio")
def overlap_ratio(pred: Sequence[float], gold: Sequence[float]) -> float | None:
    """OR: the fraction of items whose predicted score equals the gold score."""
    _check(pred, gold)
    if not pred:
        return None
    return sum(p == g for p, g in zip(pred, gold, strict=True)) / len(pred)
