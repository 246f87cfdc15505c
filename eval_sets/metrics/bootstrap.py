"""How much a before / after comparison on a few grades can be trusted: a cluster bootstrap.

A school checks a recalibration on the fifth of its corrections held back, a few dozen grades of
a handful of problems. Grades of one problem move together (the same answer, the same steps), so
the problems, not the grades, are resampled with replacement (the cluster bootstrap: Davison &
Hinkley 1997, "Bootstrap methods and their application", section 3.8), and the change is read
on the same resampled grades before and after (paired). The interval is the percentile interval
(Efron & Tibshirani 1993, "An introduction to the bootstrap", chapter 13).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

DRAWS = 2000
LEVEL = 0.9


@dataclass(frozen=True)
class Change:
    """The change of a mean (after minus before) and its percentile interval."""

    change: float
    low: float
    high: float
    clusters: int


def paired_change(rows: Sequence[tuple[str, float, float]], *, draws: int = DRAWS,
                  level: float = LEVEL, seed: int = 0) -> Change | None:
    """`rows` are (cluster, value before, value after), one per item: the change of the mean
    and its `level` interval, resampling the clusters. None below two clusters, where no
    resample can differ from the sample."""
    by: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for cluster, before, after in rows:
        by[cluster].append((before, after))
    clusters = sorted(by)
    if len(clusters) < 2:
        return None

    def change(chosen: Sequence[str]) -> float:
        pairs = [p for c in chosen for p in by[c]]
        return sum(a - b for b, a in pairs) / len(pairs)

    rng = random.Random(seed)
    changes = sorted(change([rng.choice(clusters) for _ in clusters]) for _ in range(draws))
    tail = (1 - level) / 2
    low, high = changes[round(tail * (draws - 1))], changes[round((1 - tail) * (draws - 1))]
    return Change(change(clusters), low, high, len(clusters))
