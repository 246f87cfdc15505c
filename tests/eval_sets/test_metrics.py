"""Every metric on a small example computed by hand (the arithmetic is in the comments)."""

from __future__ import annotations

import math

import pytest

from eval_sets.metrics import (
    auc,
    avg_score,
    divergence_histogram,
    false_positive_rate,
    macro_f1,
    mse,
    overlap_ratio,
    pearson,
    processbench_score,
    quadrant_shares,
    spearman,
    std,
)
from eval_sets.registry import get_metric, register_metric

PRED = [10, 4, 7, 0]
GOLD = [10, 6, 7, 3]


def test_avg_score() -> None:
    assert avg_score(PRED) == pytest.approx(21 / 4)  # (10+4+7+0)/4
    assert avg_score([]) is None


def test_mse() -> None:
    assert mse(PRED, GOLD) == pytest.approx((0 + 4 + 0 + 9) / 4)  # 3.25


def test_overlap_ratio_counts_exact_score_matches() -> None:
    assert overlap_ratio(PRED, GOLD) == pytest.approx(2 / 4)  # items 1 and 3 agree
    assert overlap_ratio([1, 0, 1], [1, 1, 1]) == pytest.approx(2 / 3)


def test_pearson_by_hand() -> None:
    # x = 1,2,3, y = 1,2,4: mean 2 and 7/3; cov = (-1)(-4/3) + 0 + (1)(5/3) = 3
    # var x = 2, var y = 16/9 + 1/9 + 25/9 = 42/9; r = 3 / sqrt(2 * 42/9) = 0.98198
    assert pearson([1, 2, 3], [1, 2, 4]) == pytest.approx(3 / math.sqrt(2 * 42 / 9))
    assert pearson([1, 1, 1], [1, 2, 3]) is None
    assert pearson([1], [2]) is None


def test_spearman_ties_share_ranks() -> None:
    # ranks of [1, 2, 2] = [1, 2.5, 2.5]; of [3, 1, 1] = [3, 1.5, 1.5]: perfectly opposite
    assert spearman([1, 2, 2], [3, 1, 1]) == pytest.approx(-1.0)
    assert spearman([1, 2, 3, 4], [10, 20, 40, 30]) == pytest.approx(0.8)  # 1 - 6*2/(4*15)


def test_auc_rank_based_with_ties() -> None:
    # positives 0.9, 0.5; negatives 0.1, 0.5. Pairs: (0.9>0.1)=1 (0.9>0.5)=1 (0.5>0.1)=1
    # (0.5=0.5)=1/2 -> 3.5 / 4
    assert auc([1, 0, 1, 0], [0.9, 0.1, 0.5, 0.5]) == pytest.approx(0.875)
    assert auc([1, 1], [0.2, 0.3]) is None


def test_macro_f1() -> None:
    # gold 1,0,1,0 pred 1,1,1,0: class 1 tp=2 fp=1 fn=0 -> 4/5; class 0 tp=1 fp=0 fn=1 -> 2/3
    assert macro_f1([1, 0, 1, 0], [1, 1, 1, 0]) == pytest.approx((4 / 5 + 2 / 3) / 2)


def test_processbench_f1() -> None:
    # erroneous gold 2, 3, 1 vs pred 2, None, 1 -> 2/3; correct gold None x2 vs pred None, 4 -> 1/2
    score = processbench_score([2, None, 1, None, 4], [2, 3, 1, None, None])
    assert score.error_accuracy == pytest.approx(2 / 3)
    assert score.correct_accuracy == pytest.approx(1 / 2)
    assert score.f1 == pytest.approx(2 * (2 / 3) * (1 / 2) / (2 / 3 + 1 / 2))  # 4/7


def test_quadrants_divergence_std_and_false_positive_rate() -> None:
    shares = quadrant_shares(["robust", "robust", "failure", "lucky_guess"])
    assert shares == {"robust": 0.5, "hallucination": 0.0, "lucky_guess": 0.25, "failure": 0.25}
    assert divergence_histogram([3, None, 1, 3, 10]) == {"1": 1, "3": 2, "10": 1, "none": 1}
    assert std([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2.0)
    # correct answers: items 1, 2, 4; of these item 2 has invalid steps -> 1/3
    assert false_positive_rate([True, True, False, True], [True, False, False, True]) == (
        pytest.approx(1 / 3)
    )


def test_metric_registry_refuses_duplicates() -> None:
    assert get_metric("mse") is mse
    with pytest.raises(ValueError, match="already registered"):
        register_metric("mse")(lambda: 0.0)
    with pytest.raises(KeyError, match="unknown metric"):
        get_metric("nope")


def test_length_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="differ"):
        mse([1, 2], [1])


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
