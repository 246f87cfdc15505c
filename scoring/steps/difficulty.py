"""Offline twins of StepMathAgent's difficulty calibration (Table 2: knowledge scope x steps).

Two readings, both from the problem and the solution only:
- `calibrate_difficulty`, the difficulty module's level: without a model we cannot judge the
  knowledge scope, so the level follows the number of solution steps and the length of the
  problem; only level 1 ("simple") skips process evaluation;
- `estimate_difficulty`, a continuous level (1 easy to 3 hard) that the step model reads, so that
  P(wrong) knows how hard a problem is when the mix of problems moves. It is a linear reading of
  what a text shows of its difficulty (`difficulty_features`): how long the problem is, how much
  notation beyond arithmetic it uses, how many letters stand for quantities, how many steps the
  solution takes and how long they are. Its weights are fitted by least squares on labelled
  levels (StepMathBench's levels; ProcessBench's sources: grade school 1, competition 2,
  olympiad 3) by `eval_sets.calibrate` and read from the calibration file; never from a data
  set's level field at grading time.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.parse.lexicon import latex
from scoring.schema import ProblemType
from scoring.verdict import DifficultyVerdict

# Notation of topics beyond arithmetic: calculus, logarithms and trigonometry, roots, powers
# with letters, sums and products, sets and number systems, vectors and matrices,
# combinatorics, congruences, geometry; and the Chinese names of those topics.
_NOTATION = re.compile(
    r"\\(?:int|iint|oint|lim|sum|prod|log|ln|sin|cos|tan|cot|sec|csc|arcsin|arccos|arctan|sqrt"
    r"|binom|infty|partial|vec|mathbb|det|equiv|angle|triangle|perp|parallel|cap|cup|subset"
    r"|in|forall|exists|pmod|bmod|overline|overrightarrow)(?![A-Za-z])"
    r"|\b(?:log|ln|sin|cos|tan|lim|mod|gcd|lcm)\b|\^\s*\{?\s*[a-zA-Z]|[∫∑∏√∞∠△⊥∈∪∩]|\bC_\{?\d"
    r"|导数|积分|极限|矩阵|向量|行列式|概率|期望|方差|数列|级数|对数|三角|正弦|余弦|正切|复数|集合"
    r"|不等式|方程组|同余|整除|排列|组合|椭圆|双曲线|抛物线|圆锥"
)
# A letter standing alone: a quantity named by a variable.
_LETTER = re.compile(latex.NAME_START + r"[A-Za-z](?![A-Za-z])")

DIFFICULTY_FEATURES: tuple[str, ...] = (
    "bias",
    "log_problem_chars",
    "log_notation",
    "log_letters",
    "log_steps",
    "log_step_chars",
)
LEVELS = (1.0, 3.0)  # the estimate is read within StepMathAgent's levels


def difficulty_features(problem: str, steps: Sequence[str]) -> dict[str, float]:
    """The named text features the difficulty estimate weighs."""
    n = max(len(steps), 1)
    return {
        "bias": 1.0,
        "log_problem_chars": math.log1p(len(problem)),
        "log_notation": math.log1p(len(_NOTATION.findall(problem))),
        "log_letters": math.log1p(len(set(_LETTER.findall(problem)))),
        "log_steps": math.log(n),
        "log_step_chars": math.log1p(sum(len(s) for s in steps) / n),
    }


def estimate_difficulty(problem: str, steps: Sequence[str], weights: Mapping[str, float]) -> float:
    """The problem's difficulty as a level between 1 and 3 (`weights` from the calibration; a
    feature without a weight counts nothing)."""
    found = difficulty_features(problem, steps)
    level = sum(weights.get(name, 0.0) * value for name, value in found.items())
    return min(max(level, LEVELS[0]), LEVELS[1])


@dataclass(frozen=True)
class DifficultyConfig:
    """Step and length bounds of the three levels, one place to tune them."""

    simple_max_steps: int = 2
    simple_max_problem_chars: int = 160
    hard_min_steps: int = 8


def calibrate_difficulty(
    problem: str,
    n_steps: int,
    problem_type: ProblemType,
    config: DifficultyConfig = DifficultyConfig(),
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
