"""The logistic fit recovers coefficients it is given data from."""

import numpy as np
import pytest

from eval_sets.calibrate.logistic import fit_logistic


def test_logistic_fit_recovers_known_coefficients():
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(20000), rng.normal(size=20000)])
    p = 1 / (1 + np.exp(-(x @ np.array([-1.0, 2.0]))))
    y = (rng.random(20000) < p).astype(float)
    beta = fit_logistic(x, y, l2=0.0)
    assert beta == pytest.approx([-1.0, 2.0], abs=0.1)
