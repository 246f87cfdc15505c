"""Offline twin of StepMathAgent's difficulty calibration (Table 2: knowledge scope x steps).

Without a model we cannot judge the knowledge scope, so the level follows the number of solution
steps and the length of the problem; only level 1 ("simple") skips process evaluation.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.schema import ProblemType
from scoring.verdict import DifficultyVerdict


@dataclass(frozen=True)
class DifficultyConfig:
    """Step and length bounds of the three levels, one place to tune them."""
    simple_max_steps: int = 2
    simple_max_problem_chars: int = 160
    hard_min_steps: int = 8


def calibrate_difficulty(
    problem: str, n_steps: int, problem_type: ProblemType, config: DifficultyConfig = DifficultyConfig()
) -> DifficultyVerdict:
    """Level 1 for a short calculation solved in a step or two, 3 for long derivations, else 2."""
    if (
        problem_type == "calculation"
        and n_steps <= config.simple_max_steps
        and len(problem) <= config.simple_max_problem_chars
    ):
        return DifficultyVerdict(1, False, f"short calculation solved in {n_steps} step(s)")
    if n_steps >= config.hard_min_steps:
        return DifficultyVerdict(3, True, f"{n_steps} steps")
    return DifficultyVerdict(2, True, f"{n_steps} steps")
