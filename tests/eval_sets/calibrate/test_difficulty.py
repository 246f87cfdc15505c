"""The offline difficulty fit: least squares of the level on text features, and how well its
estimate ranks the levels; too few levels fit nothing."""

from __future__ import annotations

from dataclasses import replace

from eval_sets.calibrate.difficulty import MIN_LEVELLED, difficulty_agreement, fit_difficulty
from eval_sets.calibrate.evidence import Observed
from eval_sets.calibrate.labelled import LabelledSolution
from scoring.judge import Evidence, JudgeInput
from scoring.steps import DIFFICULTY_FEATURES
from scoring.verdict import AnswerVerdict


def observed(i: int, level: int | None, duplicate: bool = False) -> Observed:
    """Harder levels have more and longer steps and a longer problem."""
    size = level or 1
    problem = f"Problem {i}: " + "find the value of the expression " * size
    steps = tuple(f"Step {k}: " + "x = y + z and so on " * size for k in range(2 * size))
    sol = LabelledSolution(
        "toy", f"t-{i}", "fit", problem, steps, (False,) * len(steps), "calculation", "en", ()
    )
    sol = replace(sol, level=level, duplicate=duplicate)
    inp = JudgeInput(problem, steps, "calculation", AnswerVerdict(None, ()))
    return Observed(sol, inp, Evidence((), tuple(() for _ in steps)))


def levelled(n: int) -> list[Observed]:
    return [observed(i, 1 + i % 3) for i in range(n)]


def test_the_fit_ranks_the_levels_it_was_fitted_on() -> None:
    data = levelled(MIN_LEVELLED + 3)
    weights = fit_difficulty(data)
    assert set(weights) == set(DIFFICULTY_FEATURES)
    agreement = difficulty_agreement(data, weights)
    assert agreement is not None and agreement > 0.9


def test_too_few_levelled_solutions_or_one_level_fit_nothing() -> None:
    assert fit_difficulty(levelled(MIN_LEVELLED - 1)) == {}
    assert fit_difficulty([observed(i, 2) for i in range(MIN_LEVELLED + 5)]) == {}


def test_unlevelled_and_duplicate_solutions_are_left_out() -> None:
    data = levelled(MIN_LEVELLED - 1)
    padding = [observed(100 + i, None) for i in range(10)]
    copies = [observed(200 + i, 3, duplicate=True) for i in range(10)]
    assert fit_difficulty(data + padding + copies) == {}


def test_agreement_needs_weights_and_three_levelled_solutions() -> None:
    weights = fit_difficulty(levelled(MIN_LEVELLED))
    assert difficulty_agreement(levelled(2), weights) is None
    assert difficulty_agreement(levelled(10), {}) is None
