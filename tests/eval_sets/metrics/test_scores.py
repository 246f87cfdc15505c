"""Score agreement metrics on a small example computed by hand (the arithmetic is in the comments)."""

from __future__ import annotations

import math

import pytest

from eval_sets.metrics import (
    avg_score,
    mse,
    overlap_ratio,
    pearson,
    spearman,
)

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


def test_length_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="differ"):
        mse([1, 2], [1])
