"""ReasonEval's solution-level scores (Xia et al. 2025): a solution's validity and redundancy from
its steps'."""

from __future__ import annotations

from collections.abc import Sequence


def solution_validity(step_validity: Sequence[float]) -> float:
    """ReasonEval: a solution is only as valid as its weakest step (min over steps)."""
    return min(step_validity) if step_validity else 0.0


def solution_redundancy(step_redundancy: Sequence[float]) -> float:
    """ReasonEval: a solution is as redundant as its most redundant step (max over steps)."""
    return max(step_redundancy) if step_redundancy else 0.0
