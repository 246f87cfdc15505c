"""StepMathAgent's Eq. 1 (Yang et al. 2025): a solution's 0-10 score from its step labels.

The model never computes the score; code does, from step labels (docs/architecture.md 4.3). With the human
step labels of StepMathBench this reproduces every gold score. The decision layer chooses labels by
it too (`scoring.judge.decide.expected`), so it sits on a floor below the judge
(tests/scoring/test_layout.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.schema import JudgedLabel, ProblemType, ScoringPolicy, StepLabel

_POINTS: dict[str, int] = {"correct": 1, "incorrect": 0, "meaningless": 0, "redundant": 1}
_HUMAN_LABEL = re.compile(r"^\s*([01])\s*(?:[(\uff08]\s*([01])\s*[)\uff09])?\s*$")


@dataclass(frozen=True)
class StepMathScore:
    """Eq. 1 before and after rounding, and the binary score of StepMathBench's gold_score_01."""

    raw: float
    score: int
    binary: int


def step_points(
    labels: Sequence[StepLabel],
    p_wrong: Sequence[float | None] | None = None,
    *,
    simplicity: bool = False,
    policy: ScoringPolicy = "stepmath",
    own: Sequence[float | None] | None = None,
) -> list[float]:
    """g_i per step (docs/architecture.md 4.2, 4.13): 1 for a correct or redundant step (0 for
    redundant with the simplicity module), 0 for an incorrect one, 1 - P(wrong) for an
    `unchecked` one (its expected point: no check decided it), and for a meaningless one 0 under
    StepMathAgent's policy. Under `follow_through` a step whose label denies it a point only
    because of an earlier error earns its own credit `own[i]` (a meaningless step without one:
    1, the label says it is right in itself)."""
    points: list[float] = []
    for i, label in enumerate(labels):
        credit = own[i] if own is not None else None
        if policy == "follow_through" and credit is not None:
            points.append(credit)
        elif label == "unchecked":
            p = p_wrong[i] if p_wrong is not None else None
            if p is None:
                raise ValueError(f"step {i + 1} is unchecked and has no P(wrong) to score it by")
            points.append(1.0 - p)
        elif label == "meaningless" and policy == "follow_through":
            points.append(1.0)
        elif label in _POINTS:
            points.append(0.0 if simplicity and label == "redundant" else float(_POINTS[label]))
        else:
            raise ValueError(f"unknown step label {label!r}")
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


def score_points(points: Sequence[float], problem_type: ProblemType) -> StepMathScore:
    """Eq. 1 on the points, rounded, and the binary score (calculation: the final step earns
    its point, more likely than not; otherwise G > 5)."""
    raw = stepmath_raw(points, problem_type)
    score = round(raw)
    binary = int(points[-1] >= 0.5) if problem_type == "calculation" else int(score > 5)
    return StepMathScore(raw=raw, score=score, binary=binary)


def score_solution(
    labels: Sequence[StepLabel],
    problem_type: ProblemType,
    *,
    simplicity: bool = False,
    p_wrong: Sequence[float | None] | None = None,
    policy: ScoringPolicy = "stepmath",
    own: Sequence[float | None] | None = None,
) -> StepMathScore:
    """Eq. 1 with its raw value and the binary score, the points as `step_points` gives them."""
    points = step_points(labels, p_wrong, simplicity=simplicity, policy=policy, own=own)
    return score_points(points, problem_type)


def expected_score(
    p_wrong: Sequence[float],
    problem_type: ProblemType,
    labels: Sequence[StepLabel] | None = None,
    policy: ScoringPolicy = "stepmath",
) -> float:
    """Eq. 1 in expectation when step i earns its point with probability 1 - p_wrong[i]; under
    StepMathAgent's policy a step labelled meaningless (built on a step labelled wrong) earns
    none, as it does in the score.

    Steps are taken as independent and a step is not discounted again for every earlier step
    it might rest on: with dependencies compounded through steps nobody labelled wrong, the
    expectation fell further from the human scores.
    """
    points = [
        0.0
        if policy == "stepmath" and labels is not None and labels[i] == "meaningless"
        else 1.0 - p
        for i, p in enumerate(p_wrong)
    ]
    return stepmath_raw(points, problem_type)


def simple_problem_score(answer_correct: bool | None) -> StepMathScore:
    """Difficulty module says "simple": process not evaluated, 10 if the answer is right else 0."""
    ok = int(bool(answer_correct))
    return StepMathScore(raw=10.0 * ok, score=10 * ok, binary=ok)


def parse_human_label(raw: str | int) -> JudgedLabel:
    """StepMathBench's human step labels: `1`, `0`, `1(0)` (meaningless), with stray spacing."""
    match = _HUMAN_LABEL.match(str(raw))
    if match is None:
        raise ValueError(f"unrecognised StepMathBench step label {raw!r}")
    first, inner = match.groups()
    if inner is not None:
        return "meaningless" if inner == "0" else "correct"
    return "correct" if first == "1" else "incorrect"
