"""The refit from reviewers' corrections: a MAP logistic fit pulled from its prior by the data."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from eval_sets.calibrate.correction_refit import map_logistic


def test_the_map_fit_moves_from_the_prior_toward_the_data_with_the_weight():
    x = np.ones((40, 1))
    y = np.array([1.0] * 30 + [0.0] * 10)  # the data's own log-odds: log 3
    prior = np.array([0.0])
    fits = [
        float(map_logistic(x, y, prior, precision=10.0, weight=w)[0])
        for w in (0.0, 0.25, 1.0, 4.0, 1000.0)
    ]
    assert fits[0] == 0.0
    assert all(a < b for a, b in itertools.pairwise(fits))
    assert fits[-1] == pytest.approx(np.log(3), abs=0.01)
    # Gradient zero at the optimum: weight * n (ybar - p) = precision * beta.
    p = 1 / (1 + np.exp(-fits[2]))
    assert 1.0 * 40 * (0.75 - p) == pytest.approx(10.0 * fits[2], abs=1e-6)
