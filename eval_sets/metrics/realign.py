"""ReAlign's Tables 1-3: accuracy and alignment per subset, quadrant shares, divergence steps."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from eval_sets.plugins import register_metric

QUADRANTS = ("robust", "hallucination", "lucky_guess", "failure")


@register_metric("mean")
def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean; None for no values."""
    return sum(values) / len(values) if values else None


@register_metric("std")
def std(values: Sequence[float]) -> float | None:
    """Population standard deviation (ddof 0), as numpy's default that ReAlign's tables use."""
    if not values:
        return None
    m = sum(values) / len(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def quadrant_shares(quadrants: Sequence[str]) -> dict[str, float]:
    """Share of each of the four quadrants (zero for an absent one)."""
    counts = Counter(quadrants)
    n = len(quadrants)
    return {q: (counts[q] / n if n else 0.0) for q in QUADRANTS}


def divergence_histogram(steps: Sequence[int | None]) -> dict[str, int]:
    """Counts of the divergence step (1-based), "none" for solutions that never diverge."""
    counts = Counter("none" if s is None else str(s) for s in steps)
    numeric = sorted((k for k in counts if k != "none"), key=int)
    out = {k: counts[k] for k in numeric}
    if "none" in counts:
        out["none"] = counts["none"]
    return out


@register_metric("false_positive_rate")
def false_positive_rate(
    answer_correct: Sequence[bool], process_valid: Sequence[bool]
) -> float | None:
    """ReasonEval Table 4: among solutions with a correct final answer, the share whose steps are
    invalid (answer-only grading would wrongly pass them). None without correct answers."""
    if len(answer_correct) != len(process_valid):
        raise ValueError("answer_correct and process_valid lengths differ")
    passed = [v for a, v in zip(answer_correct, process_valid, strict=True) if a]
    return sum(1 for v in passed if not v) / len(passed) if passed else None
