"""Pure metric functions over lists; importing this package registers them by name."""

from eval_sets.metrics.classification import accuracy, auc, f1_for, macro_f1, threshold
from eval_sets.metrics.processbench import ProcessBenchScore, processbench_f1, processbench_score
from eval_sets.metrics.realign import (
    QUADRANTS,
    divergence_histogram,
    false_positive_rate,
    mean,
    quadrant_shares,
    std,
)
from eval_sets.metrics.scores import avg_score, mse, overlap_ratio, pearson, spearman

__all__ = [
    "QUADRANTS",
    "ProcessBenchScore",
    "accuracy",
    "auc",
    "avg_score",
    "divergence_histogram",
    "f1_for",
    "false_positive_rate",
    "macro_f1",
    "mean",
    "mse",
    "overlap_ratio",
    "pearson",
    "processbench_f1",
    "processbench_score",
    "quadrant_shares",
    "spearman",
    "std",
    "threshold",
]
