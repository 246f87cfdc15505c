"""How much a figure read on a few problems can be trusted: a cluster bootstrap.

A figure of a dev half, or of the fifth of a school's corrections held back, rests on a few dozen
problems. Grades of one problem move together (the same answer, the same steps), so the problems,
not the grades, are resampled with replacement (the cluster bootstrap: Davison & Hinkley 1997,
"Bootstrap methods and their application", section 3.8). A before / after comparison is read on
the same resampled grades before and after (paired). The interval is the percentile interval
(Efron & Tibshirani 1993, "An introduction to the bootstrap", chapter 13).
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

DRAWS = 2000
LEVEL = 0.9

Row = TypeVar("Row")


@dataclass(frozen=True)
class Change:
    """The change of a mean (after minus before) and its percentile interval."""

    change: float
    low: float
    high: float
    clusters: int


@dataclass(frozen=True)
class Interval:
    """A figure on the whole sample and the percentile interval of its resampled values."""

    value: float
    low: float
    high: float
    clusters: int


def percentile_range(ordered: Sequence[float], level: float = LEVEL) -> tuple[float, float]:
    """The central `level` range of values sorted ascending: the percentile interval's ends."""
    tail, last = (1 - level) / 2, len(ordered) - 1
    return ordered[round(tail * last)], ordered[round((1 - tail) * last)]


def _resampled(
    rows: Sequence[tuple[str, Row]],
    statistic: Callable[[Sequence[Row]], float],
    draws: int,
    level: float,
    seed: int,
) -> tuple[float, float, float, int] | None:
    """(the statistic on every row, the low and high percentiles of its value over `draws`
    resamples of the clusters, the number of clusters); None below two clusters, where no
    resample can differ from the sample, or when no resample has a defined (non-NaN) value."""
    by: dict[str, list[Row]] = defaultdict(list)
    for cluster, row in rows:
        by[cluster].append(row)
    clusters = sorted(by)
    if len(clusters) < 2:
        return None
    rng = random.Random(seed)
    values = sorted(
        v
        for v in (
            statistic([r for c in (rng.choice(clusters) for _ in clusters) for r in by[c]])
            for _ in range(draws)
        )
        if not math.isnan(v)
    )
    if not values:
        return None
    return (
        statistic([r for c in clusters for r in by[c]]),
        *percentile_range(values, level),
        len(clusters),
    )


def cluster_interval(
    rows: Sequence[tuple[str, Row]],
    statistic: Callable[[Sequence[Row]], float],
    *,
    draws: int = DRAWS,
    level: float = LEVEL,
    seed: int = 0,
) -> Interval | None:
    """`rows` are (cluster, item): `statistic` of all the items and its `level` interval,
    resampling the clusters. Resamples where the statistic is undefined (NaN: a correlation of
    a constant) are left out. None below two clusters or with no defined resample."""
    found = _resampled(rows, statistic, draws, level, seed)
    return None if found is None else Interval(*found)


def paired_change(
    rows: Sequence[tuple[str, float, float]],
    *,
    draws: int = DRAWS,
    level: float = LEVEL,
    seed: int = 0,
) -> Change | None:
    """`rows` are (cluster, value before, value after), one per item: the change of the mean
    and its `level` interval, resampling the clusters. None below two clusters, where no
    resample can differ from the sample."""

    def change(pairs: Sequence[tuple[float, float]]) -> float:
        return sum(a - b for b, a in pairs) / len(pairs)

    found = _resampled([(c, (b, a)) for c, b, a in rows], change, draws, level, seed)
    return None if found is None else Change(*found)
