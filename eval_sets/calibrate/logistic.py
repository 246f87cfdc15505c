"""L2-regularised logistic regression by iteratively reweighted least squares (numpy only).

The step model has a few dozen named features and a few thousand labelled steps: Newton's method
converges in a handful of iterations, and a small dependency-free solver keeps the calibration
reproducible to the last digit on any machine.
"""

from __future__ import annotations

import numpy as np


def fit_logistic(
    x: np.ndarray,
    y: np.ndarray,
    l2: float = 1.0,
    sample_weight: np.ndarray | None = None,
    max_iter: int = 100,
) -> np.ndarray:
    """Coefficients beta (column 0 is the intercept, not penalised) of P(y=1) = sigmoid(x @ beta)."""
    n, d = x.shape
    w = np.ones(n) if sample_weight is None else sample_weight
    penalty = l2 * np.eye(d)
    penalty[0, 0] = 0.0
    beta = np.zeros(d)
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -30, 30)))
        grad = x.T @ (w * (y - p)) - penalty @ beta
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + penalty + 1e-9 * np.eye(d)
        step = np.linalg.solve(hess, grad)
        beta += step
        if np.abs(step).max() < 1e-8:
            break
    return beta
