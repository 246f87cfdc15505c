"""Realignment metrics (quadrants, divergence, false positives) computed by hand."""

from __future__ import annotations

import pytest

from eval_sets.metrics import (
    divergence_histogram,
    false_positive_rate,
    quadrant_shares,
    std,
)


def test_quadrants_divergence_std_and_false_positive_rate() -> None:
    shares = quadrant_shares(["robust", "robust", "failure", "lucky_guess"])
    assert shares == {"robust": 0.5, "hallucination": 0.0, "lucky_guess": 0.25, "failure": 0.25}
    assert divergence_histogram([3, None, 1, 3, 10]) == {"1": 1, "3": 2, "10": 1, "none": 1}
    assert std([2, 4, 4, 4, 5, 5, 7, 9]) == pytest.approx(2.0)
    # correct answers: items 1, 2, 4; of these item 2 has invalid steps -> 1/3
    assert false_positive_rate([True, True, False, True], [True, False, False, True]) == (
        pytest.approx(1 / 3)
    )
