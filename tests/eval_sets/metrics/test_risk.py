"""Calibration and risk metrics on small examples computed by hand."""

from __future__ import annotations

import math

import pytest

from eval_sets.metrics.risk import (
    corr_mae,
    coverage_of,
    reliability,
    risk_coverage,
    weighted_ece,
)


def test_consistency_ece_is_what_a_calibrated_p_wrong_reads():
    from eval_sets.metrics.risk import consistency_ece, reliability

    # certain probabilities draw certain labels: a calibrated ECE of exactly 0
    assert consistency_ece([0.0, 1.0, 1.0, 0.0]) == (0.0, 0.0, 0.0)
    assert all(math.isnan(v) for v in consistency_ece([]))
    # finite steps read above 0 even when calibrated, less so with more steps
    median_few, low_few, high_few = consistency_ece([0.3] * 50, draws=400)
    median_many, _, high_many = consistency_ece([0.3] * 5000, draws=400)
    assert 0 <= low_few <= median_few <= high_few and median_few > 0
    assert median_many < median_few and high_many < high_few and high_many < 0.02
    # a P(wrong) of 0.1 on steps that are all wrong is far above what noise reads
    ece = reliability([(0.1, True)] * 200)[0]
    assert ece == pytest.approx(0.9) and ece > consistency_ece([0.1] * 200, draws=400)[2]


def test_reliability_refuses_a_probability_outside_0_1():
    from eval_sets.metrics.risk import reliability

    with pytest.raises(ValueError, match=r"in \[0, 1\], got 1.2"):
        reliability([(0.5, True), (1.2, False)])
    # bin edges fall in the upper bin, 1.0 in the last
    assert [row[0] for row in reliability([(0.3, True), (0.7, False), (1.0, True)])[1]] == [
        "0.3-0.4",
        "0.7-0.8",
        "0.9-1.0",
    ]


def test_weighted_ece_by_hand():
    # bin 0.1-0.2: weights 3 (p .15, right) and 1 (p .15, wrong): |.6 - 1| / 4 ... by mass
    triples = [(0.15, False, 3.0), (0.15, True, 1.0), (0.85, True, 2.0)]
    # bin 1: mass p .6, mass wrong 1 -> .4; bin 8: mass p 1.7, mass wrong 2 -> .3; total 6
    assert weighted_ece(triples) == pytest.approx((0.4 + 0.3) / 6)
    assert math.isnan(weighted_ece([]))


def test_metrics_edge_cases() -> None:
    assert math.isnan(reliability([])[0])
    assert risk_coverage([], []) == []
    with pytest.raises(ValueError, match="lengths differ"):
        risk_coverage([1], [])


def test_coverage_and_width() -> None:
    assert coverage_of([(0, 2), (3, 3), (5, 9)], [1, 4, 9]) == pytest.approx((2 / 3, 2.0))
    assert all(math.isnan(v) for v in coverage_of([], []))


def test_corr_mae_and_reliability() -> None:
    corr, mae = corr_mae([(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)])
    assert corr == pytest.approx(100.0) and mae == pytest.approx(2.0)
    ece, rows = reliability([(0.05, False), (0.05, True), (0.95, True), (0.95, True)])
    # bin 0.0-0.1: mean 0.05 against a rate of 0.5; bin 0.9-1.0: 0.95 against 1.0
    assert ece == pytest.approx(0.5 * 0.45 + 0.5 * 0.05)
    assert [(label, n) for label, n, _, _ in rows] == [("0.0-0.1", 2), ("0.9-1.0", 2)]
