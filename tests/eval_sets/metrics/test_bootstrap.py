"""Cluster bootstrap intervals: problems are resampled, not single grades."""

from __future__ import annotations

import math

import pytest


def test_paired_change_resamples_problems_not_grades():
    from eval_sets.metrics.bootstrap import paired_change

    # every grade one point better: the change and both ends of the interval are -1
    same = paired_change([(p, 2.0, 1.0) for p in "abcd" for _ in range(3)])
    assert same is not None and (same.change, same.low, same.high, same.clusters) == (-1, -1, -1, 4)
    # one problem much better, three a little worse: the mean falls, the interval spans 0
    mixed = paired_change([("a", 6.0, 0.0), ("b", 1.0, 1.5), ("c", 1.0, 1.5), ("d", 1.0, 1.5)])
    assert mixed is not None and mixed.change == -1.125
    assert mixed.low < mixed.change < 0 < mixed.high
    # twenty grades of one problem are one cluster: nothing to resample
    assert paired_change([("a", 3.0, 1.0)] * 20) is None
    # grades of one problem move together: their number does not narrow the interval
    few = paired_change([(p, b, a) for p, b, a in (("a", 4, 1), ("b", 1, 2), ("c", 2, 2))])
    many = paired_change([(p, b, a) for p, b, a in (("a", 4, 1), ("b", 1, 2), ("c", 2, 2))] * 10)
    assert few is not None and many is not None
    assert (few.low, few.high) == pytest.approx((many.low, many.high))


def test_cluster_interval_resamples_problems_not_grades():
    from eval_sets.metrics.bootstrap import cluster_interval

    def mean(values):
        return sum(values) / len(values)

    # every problem reads the same: the interval is the value
    flat = cluster_interval([(p, 1.0) for p in "abc" for _ in range(4)], mean)
    assert flat is not None and (flat.value, flat.low, flat.high, flat.clusters) == (1, 1, 1, 3)
    # nine grades of one problem and one of another: resampling grades would keep the mean near
    # 0.9; resampling the two problems draws {b, b} (mean 0) a quarter of the time
    lopsided = cluster_interval([("a", 1.0)] * 9 + [("b", 0.0)], mean)
    assert lopsided is not None and lopsided.value == 0.9
    assert (lopsided.low, lopsided.high) == (0.0, 1.0)
    # copies of each problem's grades do not narrow it
    rows = [("a", 4.0), ("b", 1.0), ("c", 2.0), ("d", 0.0)]
    few, many = cluster_interval(rows, mean), cluster_interval(rows * 10, mean)
    assert few is not None and many is not None and (few.low, few.high) == (many.low, many.high)
    assert few.low < few.value < few.high
    # one problem: nothing to resample; a statistic never defined: no interval
    assert cluster_interval([("a", 1.0), ("a", 2.0)], mean) is None
    assert cluster_interval(rows, lambda values: math.nan) is None
