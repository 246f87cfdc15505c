"""The ProcessBench F1 on a small example computed by hand."""

from __future__ import annotations

import pytest

from eval_sets.metrics import (
    processbench_score,
)


def test_processbench_f1() -> None:
    # erroneous gold 2, 3, 1 vs pred 2, None, 1 -> 2/3; correct gold None x2 vs pred None, 4 -> 1/2
    score = processbench_score([2, None, 1, None, 4], [2, 3, 1, None, None])
    assert score.error_accuracy == pytest.approx(2 / 3)
    assert score.correct_accuracy == pytest.approx(1 / 2)
    assert score.f1 == pytest.approx(2 * (2 / 3) * (1 / 2) / (2 / 3 + 1 / 2))  # 4/7
