"""Classification metrics on small examples computed by hand."""

from __future__ import annotations

import pytest

from eval_sets.metrics import (
    auc,
    macro_f1,
)


def test_auc_rank_based_with_ties() -> None:
    # positives 0.9, 0.5; negatives 0.1, 0.5. Pairs: (0.9>0.1)=1 (0.9>0.5)=1 (0.5>0.1)=1
    # (0.5=0.5)=1/2 -> 3.5 / 4
    assert auc([1, 0, 1, 0], [0.9, 0.1, 0.5, 0.5]) == pytest.approx(0.875)
    assert auc([1, 1], [0.2, 0.3]) is None


def test_macro_f1() -> None:
    # gold 1,0,1,0 pred 1,1,1,0: class 1 tp=2 fp=1 fn=0 -> 4/5; class 0 tp=1 fp=0 fn=1 -> 2/3
    assert macro_f1([1, 0, 1, 0], [1, 1, 1, 0]) == pytest.approx((4 / 5 + 2 / 3) / 2)
