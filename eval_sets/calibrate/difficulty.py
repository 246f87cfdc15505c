"""Fit the offline difficulty estimate (`scoring.steps.difficulty`) on labelled levels.

Least squares of the level (StepMathBench's 1-3; ProcessBench's sources as levels, see
`eval_sets.calibrate.labelled.SOURCE_LEVELS`) on the text features of the problem and the
solution, per language, on the natural solutions of the fit half that have a level. The estimate
is then one feature of that language's step model: what differs between easier and harder sets
of problems, read from text alone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.stats import spearmanr

from eval_sets.calibrate.evidence import Observed
from scoring.steps import DIFFICULTY_FEATURES, difficulty_features, estimate_difficulty

MIN_LEVELLED = 30  # solutions with a level, below which no estimate is fitted


def _levelled(observed: Sequence[Observed]) -> list[Observed]:
    return [o for o in observed if o.solution.level is not None and not o.solution.duplicate]


def fit_difficulty(observed: Sequence[Observed]) -> dict[str, float]:
    """The estimate's weights by feature name; {} (no estimate) with too few levelled
    solutions or only one level."""
    levelled = _levelled(observed)
    if len(levelled) < MIN_LEVELLED or len({o.solution.level for o in levelled}) < 2:
        return {}
    x = np.array(
        [
            [difficulty_features(o.inp.problem, o.inp.steps)[n] for n in DIFFICULTY_FEATURES]
            for o in levelled
        ]
    )
    y = np.array([float(o.solution.level or 0) for o in levelled])
    beta, *_ = np.linalg.lstsq(x, y, rcond=None)
    return {n: round(float(b), 4) for n, b in zip(DIFFICULTY_FEATURES, beta, strict=True)}


def difficulty_agreement(observed: Sequence[Observed], weights: dict[str, float]) -> float | None:
    """Spearman's rank correlation of the estimate with the labelled levels (None without
    enough of them): how well the text tells a hard problem from an easy one."""
    levelled = _levelled(observed)
    if len(levelled) < 3 or not weights:
        return None
    estimate = [estimate_difficulty(o.inp.problem, o.inp.steps, weights) for o in levelled]
    value = spearmanr(estimate, [o.solution.level for o in levelled]).correlation
    return None if np.isnan(value) else round(float(value), 4)
