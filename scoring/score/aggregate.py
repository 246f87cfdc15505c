"""Score aggregation: StepMathAgent's Eq. 1 and ReasonEval's solution-level scores.

The model never computes the score; code does, from step labels (docs/architecture.md 4.3). With the human
step labels of StepMathBench this reproduces every gold score.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.schema import ProblemType, StepLabel

_POINTS: dict[str, int] = {"correct": 1, "incorrect": 0, "meaningless": 0, "redundant": 1}
_HUMAN_LABEL = re.compile(r"^\s*([01])\s*(?:[(\uff08]\s*([01])\s*[)\uff09])?\s*$")


@dataclass(frozen=True)
class StepMathScore:
    """Eq. 1 before and after rounding, and the binary score of StepMathBench's gold_score_01."""

    raw: float
    score: int
    binary: int


def step_points(labels: Sequence[StepLabel], *, simplicity: bool = False) -> list[int]:
    """g_i in {0, 1} per step (docs/architecture.md 4.2); the simplicity module makes redundant steps cost."""
    points = []
    for label in labels:
        if label not in _POINTS:
            raise ValueError(f"unknown step label {label!r}")
        points.append(0 if simplicity and label == "redundant" else _POINTS[label])
    return points


def stepmath_raw(points: Sequence[float], problem_type: ProblemType) -> float:
    """StepMathAgent Eq. 1 before φ: calculation weighs the final step 4 of 10, others share 6."""
    n = len(points)
    if n == 0:
        raise ValueError("a solution needs at least one step to be scored")
    if problem_type == "calculation":
        if n == 1:
            return 10.0 * points[0]
        return 6.0 * sum(points[:-1]) / (n - 1) + 4.0 * points[-1]
    return 10.0 * sum(points) / n


def stepmath_score(
    labels: Sequence[StepLabel], problem_type: ProblemType, *, simplicity: bool = False
) -> int:
    """StepMathAgent Eq. 1: G = φ(...) with φ = Python's round (half to even)."""
    return score_solution(labels, problem_type, simplicity=simplicity).score


def score_solution(
    labels: Sequence[StepLabel], problem_type: ProblemType, *, simplicity: bool = False
) -> StepMathScore:
    """Eq. 1 with its raw value and the binary score (calculation: g_N; otherwise G > 5)."""
    points = step_points(labels, simplicity=simplicity)
    raw = stepmath_raw(points, problem_type)
    score = round(raw)
    binary = points[-1] if problem_type == "calculation" else int(score > 5)
    return StepMathScore(raw=raw, score=score, binary=binary)


def expected_score(p_wrong: Sequence[float], problem_type: ProblemType) -> float:
    """Eq. 1 in expectation when step i earns its point with probability 1 - p_wrong[i].

    Steps are taken as independent and a step built on a wrong one is not discounted again:
    with dependencies compounded, the expectation fell further from the human scores.
    """
    return stepmath_raw([1.0 - p for p in p_wrong], problem_type)


def simple_problem_score(answer_correct: bool | None) -> StepMathScore:
    """Difficulty module says "simple": process not evaluated, 10 if the answer is right else 0."""
    ok = int(bool(answer_correct))
    return StepMathScore(raw=10.0 * ok, score=10 * ok, binary=ok)


def parse_human_label(raw: str | int) -> StepLabel:
    """StepMathBench's human step labels: `1`, `0`, `1(0)` (meaningless), with stray spacing."""
    match = _HUMAN_LABEL.match(str(raw))
    if match is None:
        raise ValueError(f"unrecognised StepMathBench step label {raw!r}")
    first, inner = match.groups()
    if inner is not None:
        return "meaningless" if inner == "0" else "correct"
    return "correct" if first == "1" else "incorrect"


def solution_validity(step_validity: Sequence[float]) -> float:
    """ReasonEval: a solution is only as valid as its weakest step (min over steps)."""
    return min(step_validity) if step_validity else 0.0


def solution_redundancy(step_redundancy: Sequence[float]) -> float:
    """ReasonEval: a solution is as redundant as its most redundant step (max over steps)."""
    return max(step_redundancy) if step_redundancy else 0.0
