"""Labels whose Eq. 1 score is closest to the expected score (StepMathAgent Eq. 1).

A threshold on P(wrong) decides each step alone: a solution whose steps are each 40% likely
wrong keeps every label `correct` and scores 10, though its expected score is 6. When the score
is what a grade is judged by, the labels are better chosen together: mark steps wrong from the
most to the least likely, and stop at the number that brings Eq. 1 on the resulting labels
(errors spoil the steps built on them, as the decision's propagation does) closest to Eq. 1 in
expectation under the same probabilities, plus a calibrated `lenience` in points. The lenience
is fitted per language on the fit half (`eval_sets.calibrate`): human scores pile up at 10, so a
solution expected to score 9.3 is better called 10 than 9. `score` stays Eq. 1 on the decided
labels; which steps are wrong still follows their probabilities.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.schema import ProblemType
from scoring.score.stepmath import expected_score, stepmath_raw


def closest_to_expected(
    p_wrong: Sequence[float],
    problem_type: ProblemType,
    depends_on: Sequence[Sequence[int]],
    shielded: Sequence[bool],
    lenience: float = 0.0,
    forced: Sequence[bool] | None = None,
) -> list[bool]:
    """Which steps to call wrong: the `forced` ones, then the `k` most likely, with `k` (fewest
    on a tie) bringing Eq. 1 on the labels closest to `expected_score(p_wrong) + lenience`. A
    step that uses a wrong one earns no point either, unless it is `shielded` (a right final
    answer)."""
    n = len(p_wrong)
    if n == 0:  # nothing to label (Eq. 1 has no value without steps)
        return []
    forced = forced or [False] * n
    target = expected_score(p_wrong, problem_type) + lenience
    users: list[list[int]] = [[] for _ in range(n)]
    for j, deps in enumerate(depends_on):
        for d in deps:
            users[d].append(j)
    cost = _point_costs(n, problem_type)
    points = [True] * n
    raw = stepmath_raw([1.0] * n, problem_type)
    order = sorted(range(n), key=lambda s: (not forced[s], -p_wrong[s]))
    must = sum(forced)
    best, best_error = 0, abs(raw - target) if not must else float("inf")
    for k, i in enumerate(order, 1):
        stack = [i] if points[i] else []
        raw -= cost[i] if points[i] else 0.0
        points[i] = False
        while stack:  # Eq. 1 only falls as errors are added: each step loses its point once
            for j in users[stack.pop()]:
                if points[j] and not shielded[j]:
                    points[j] = False
                    raw -= cost[j]
                    stack.append(j)
        if k >= must and abs(raw - target) < best_error - 1e-9:
            best, best_error = k, abs(raw - target)
        if k >= must and raw <= target + 1e-9:
            break
    chosen = set(order[:best])
    return [i in chosen for i in range(n)]


def _point_costs(n: int, problem_type: ProblemType) -> list[float]:
    """What each step's point is worth in Eq. 1, which is linear in the points: read off Eq. 1
    itself for the first and the last step (the others weigh as the first)."""
    full = stepmath_raw([1.0] * n, problem_type)
    last = full - stepmath_raw([1.0] * (n - 1) + [0.0], problem_type)
    first = full - stepmath_raw([0.0] + [1.0] * (n - 1), problem_type) if n > 1 else last
    return [first] * (n - 1) + [last]
