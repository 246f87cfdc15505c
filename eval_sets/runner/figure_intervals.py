"""How sure the dev halves' risk figures are: each with a 90% interval over its problems.

A half of StepMathBench dev holds 36 to 44 problems. A figure such as the interval's coverage or
the step ECE moves by several points with the problems drawn, and a target missed or met by less
than that is not yet measured. Each figure is given with the percentile interval of its value when
the half's problems are resampled (`eval_sets.metrics.bootstrap.cluster_interval`). The step ECE
is also given with the range a perfectly calibrated P(wrong) reads on the same steps
(`eval_sets.metrics.risk.consistency_ece`): an ECE above that range is miscalibration, not the
finite steps' noise.

Used by the benchmark runner's summary and by the interval fit's report, so both state the same
figures the same way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from eval_sets.halves import HALVES
from eval_sets.metrics.bootstrap import LEVEL, cluster_interval
from eval_sets.metrics.mix import HELD_OUT_MIX, mix_weights
from eval_sets.metrics.risk import consistency_ece, corr_mae, coverage_of, reliability
from eval_sets.runner.tables import Cell, Table


@dataclass(frozen=True)
class GradeRow:
    """One grade with a gold score: what its half's figures read."""

    half: str
    problem: str
    group: str  # answer right, answer wrong, no verdict, proof, open-ended
    score: int
    human: int
    interval: tuple[int, int] | None
    flagged: bool
    # below the pass mark by the human grade (a calculation's final step wrong; otherwise a
    # score of 5 or less): what the held-out mix re-weights by; None where not known
    failed: bool | None = None


@dataclass(frozen=True)
class StepRow:
    """One step with a gold label: its reported P(wrong) and whether humans call it wrong."""

    half: str
    language: str
    problem: str
    p_wrong: float
    wrong: bool


def _covered(rows: Sequence[GradeRow]) -> tuple[float, float]:
    """Coverage and mean width over the grades that carry an interval."""
    pairs = [(r.interval, r.human) for r in rows if r.interval is not None]
    return coverage_of([i for i, _ in pairs], [h for _, h in pairs])


def _coverage(rows: Sequence[GradeRow]) -> float:
    return _covered(rows)[0]


def _width(rows: Sequence[GradeRow]) -> float:
    return _covered(rows)[1]


def _unflagged(rows: Sequence[GradeRow]) -> list[tuple[float, float]]:
    return [(float(r.score), float(r.human)) for r in rows if not r.flagged]


Weighted = tuple[GradeRow, float]


def _w_covered(rows: Sequence[Weighted]) -> float:
    pairs = [(r, w) for r, w in rows if r.interval is not None]
    total = sum(w for _, w in pairs)
    inside = sum(w for r, w in pairs if r.interval and r.interval[0] <= r.human <= r.interval[1])
    return inside / total if total else math.nan


def _w_unflagged(rows: Sequence[Weighted]) -> float:
    total = sum(w for _, w in rows)
    return sum(w for r, w in rows if not r.flagged) / total if total else math.nan


def _w_corr_mae(rows: Sequence[Weighted]) -> tuple[float, float]:
    """Weighted Pearson correlation x100 and mean absolute error of the unflagged grades."""
    kept = [(float(r.score), float(r.human), w) for r, w in rows if not r.flagged]
    total = sum(w for *_, w in kept)
    if total <= 0:
        return math.nan, math.nan
    mx = sum(x * w for x, _, w in kept) / total
    my = sum(y * w for _, y, w in kept) / total
    sxy = sum(w * (x - mx) * (y - my) for x, y, w in kept)
    sxx = sum(w * (x - mx) ** 2 for x, _, w in kept)
    syy = sum(w * (y - my) ** 2 for _, y, w in kept)
    corr = 100 * sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan
    return corr, sum(w * abs(x - y) for x, y, w in kept) / total


MIX_FIGURES: tuple[tuple[str, Callable[[Sequence[Weighted]], float]], ...] = (
    ("coverage", _w_covered),
    ("unflagged", _w_unflagged),
    ("Corr unflagged", lambda rows: _w_corr_mae(rows)[0]),
    ("MAE unflagged", lambda rows: _w_corr_mae(rows)[1]),
)


def mixed(rows: Sequence[GradeRow]) -> list[tuple[str, Weighted]] | None:
    """The grades weighted to the held-out mix (`eval_sets.metrics.mix.HELD_OUT_MIX`), keyed by
    problem; None where a grade's pass mark is unknown or the set cannot reach the mix."""
    if not rows or any(r.failed is None for r in rows):
        return None
    try:
        weights = mix_weights(
            [r.group == "proof" for r in rows],
            [bool(r.failed) for r in rows],
            HELD_OUT_MIX["proof"],
            HELD_OUT_MIX["failed"],
        )
    except ValueError:
        return None
    return [(r.problem, (r, w)) for r, w in zip(rows, weights, strict=True)]


FIGURES: tuple[tuple[str, Callable[[Sequence[GradeRow]], float]], ...] = (
    ("coverage", _coverage),
    ("width", _width),
    ("unflagged", lambda rows: sum(not r.flagged for r in rows) / len(rows)),
    ("Corr unflagged", lambda rows: corr_mae(_unflagged(rows))[0]),
    ("MAE unflagged", lambda rows: corr_mae(_unflagged(rows))[1]),
)
# The runner's groups of grades that err alike (`eval_sets.runner.risk.group_of`); the issue
# asks the coverage of calculations as a whole too.
CALCULATION = ("answer right", "answer wrong", "no verdict")
GROUP_ORDER = (*CALCULATION, "proof", "open-ended")
COLUMNS = (
    "half: figure",
    "value",
    "low",
    "high",
    "problems",
    "calibrated median",
    "calibrated low",
    "calibrated high",
)


def _row(
    name: str,
    rows: Sequence[tuple[str, object]],
    statistic: Callable[[Sequence], float],
    draws: int,
) -> tuple[Cell, ...] | None:
    """(name, value, low, high, problems, and three cells the ECE rows fill); None when the
    figure is undefined here (a correlation of one grade)."""
    value = statistic([r for _, r in rows])
    if math.isnan(value):
        return None
    found = cluster_interval(rows, statistic, draws=draws)
    low, high = (found.low, found.high) if found is not None else (None, None)
    return (name, value, low, high, len({p for p, _ in rows}), None, None, None)


def figure_intervals(
    grades: Sequence[GradeRow],
    steps: Sequence[StepRow],
    *,
    key: str = "figure_intervals",
    title_suffix: str = "",
    draws: int = 2000,
) -> Table | None:
    """Per half: the risk figures over all grades, the coverage per group, and the step ECE per
    language, each with its interval over the half's problems; the ECE also with the range a
    calibrated P(wrong) reads. None with neither gold scores nor labelled steps."""
    out: list[tuple[Cell, ...]] = []
    for half in HALVES:
        mine = [(g.problem, g) for g in grades if g.half == half]
        if mine:
            for name, statistic in FIGURES:
                if (row := _row(f"{half}: {name}", mine, statistic, draws)) is not None:
                    out.append(row)
            if (weighted := mixed([g for _, g in mine])) is not None:
                for name, w_statistic in MIX_FIGURES:
                    if (
                        row := _row(f"{half}: {name}, held-out mix", weighted, w_statistic, draws)
                    ) is not None:
                        out.append(row)
            present = {g.group for _, g in mine}
            for group in [
                *(["calculation"] if present & set(CALCULATION) else []),
                *(g for g in GROUP_ORDER if g in present),
                *sorted(present - set(GROUP_ORDER)),
            ]:
                chosen = [
                    (p, g)
                    for p, g in mine
                    if g.group == group or (group == "calculation" and g.group in CALCULATION)
                ]
                if (
                    row := _row(f"{half}: coverage, {group}", chosen, _coverage, draws)
                ) is not None:
                    out.append(row)
        for language in sorted({s.language for s in steps if s.half == half}):
            labelled = [
                (s.problem, (s.p_wrong, s.wrong))
                for s in steps
                if s.half == half and s.language == language
            ]
            row = _row(
                f"{half}: step ECE {language}", labelled, lambda pairs: reliability(pairs)[0], draws
            )
            if row is not None:
                median, low, high = consistency_ece([p for _, (p, _) in labelled], draws=draws)
                out.append((*row[:5], median, low, high))
    if not out:
        return None
    return Table(
        key,
        f"How sure each figure is: its {LEVEL:.0%} interval with the half's "
        f"problems resampled{title_suffix}",
        COLUMNS,
        tuple(out),
        note="low / high: the percentile interval of the figure when the half's problems "
        "(not its grades: one problem's grades move together) are drawn again with "
        f"replacement, {draws} times (Davison & Hinkley 1997, 3.8). calibrated: the "
        "step ECE that a perfectly calibrated P(wrong) reads on the same steps, "
        "median and range (consistency resampling, Broecker & Smith 2007): an ECE "
        "above it is miscalibration, not the steps' noise. A resampled ECE runs "
        "above the sample's (each bin's absolute gap grows with the noise a "
        "resample adds): its interval says how far it moves, not where it "
        "centres. Corr x100. held-out mix: the grades re-weighted by raking so that "
        f"{HELD_OUT_MIX['failed']:.0%} are below the pass mark and "
        f"{HELD_OUT_MIX['proof']:.0%} are proofs (eval_sets.metrics.mix).",
    )
