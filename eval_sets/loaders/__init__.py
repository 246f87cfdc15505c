"""The built-in loaders; importing this package registers them (one module per data set)."""

from eval_sets.loaders import (
    gsm8k,
    hendrycks_math,
    mr_math,
    perturbation,
    prm800k,
    processbench,
    stepmath,
)

__all__ = [
    "gsm8k",
    "hendrycks_math",
    "mr_math",
    "perturbation",
    "prm800k",
    "processbench",
    "stepmath",
]
