"""How far the simulated deployment could move the MAE with one level per group of grades.

    stepgrade study deployment_bounds RESULTS.jsonl [--splits 5]

How far the simulated deployment (`eval_sets.studies.deployment_sim`) could move the MAE on
group B with no more than a level per group of grades: what a recalibration that learns nothing
about partial credit inside a group can reach. RESULTS is a run of `stepgrade bench grade
--dataset stepmath_steps` (StepMathBench on its human steps, as the simulation grades it); the
problems are split into A and B by the simulation's own hash (`deployment_items.group`), per half
and seed. Per group (`eval_sets.runner.risk.group_of`; answer right is left alone), on B:

- "A shift": the score moved by the integer shift that minimises A's absolute error (what a
  per-group offset learnt from every grade of A gives, more than the 100 corrected);
- "A median": every grade of the group replaced by the median human score of A's;
- "B shift": the shift fitted on B itself, an oracle no deployment has.

Each against the shipped scores' MAE on B. Exit status 2 when RESULTS cannot be read.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from eval_sets.deployment_items import group
from eval_sets.halves import HALVES, half_of
from eval_sets.plugins import register_study
from eval_sets.runner.risk import group_of
from eval_sets.runner.store import ItemResult
from eval_sets.study_cli import StudyInputError, add_splits, run_study

SHIFTS = range(-5, 6)
MIN_GROUP = 5  # fewer grades of a group in A: it is left as it is


@dataclass(frozen=True)
class Point:
    """One grade: its half, its group, its score and the human one."""

    problem: str
    half: str
    group: str
    score: int
    human: int


def read_points(path: Path) -> list[Point]:
    """The graded items of a results file with a gold score."""
    points = []
    for line in path.read_text(encoding="utf-8").splitlines():
        result = ItemResult.from_json(json.loads(line))
        if result.report is None or result.request is None or result.gold.score is None:
            continue
        problem = result.request.problem
        points.append(
            Point(
                problem,
                half_of(problem),
                group_of(result.report),
                result.report.score,
                int(result.gold.score),
            )
        )
    return points


def _clip(x: float) -> float:
    return min(10.0, max(0.0, x))


def best_shift(points: Sequence[Point]) -> int:
    """The integer shift of the score that minimises the absolute error on `points`."""
    return min(
        SHIFTS, key=lambda d: (sum(abs(p.human - _clip(p.score + d)) for p in points), abs(d))
    )


def mae(points: Sequence[Point], predict: Callable[[Point], float]) -> float:
    """Mean absolute error of `predict` against the human scores."""
    return statistics.fmean(abs(p.human - predict(p)) for p in points)


def per_group(points: Sequence[Point], fit: Callable[[Sequence[Point]], float]) -> dict[str, float]:
    """`fit` of each group with enough grades, answer right left out."""
    groups = {p.group for p in points} - {"answer right"}
    fitted = {}
    for name in sorted(groups):
        mine = [p for p in points if p.group == name]
        if len(mine) >= MIN_GROUP:
            fitted[name] = fit(mine)
    return fitted


def bounds(points: Sequence[Point], seed: int) -> dict[str, float]:
    """B's MAE as shipped and under the three per-group predictors, for one split."""
    a = [p for p in points if group(p.problem, seed) == "A"]
    b = [p for p in points if group(p.problem, seed) == "B"]
    a_shift = per_group(a, best_shift)
    a_median = per_group(a, lambda ps: statistics.median(p.human for p in ps))
    b_shift = per_group(b, best_shift)
    return {
        "A": len(a),
        "B": len(b),
        "shipped": mae(b, lambda p: p.score),
        "A shift": mae(b, lambda p: _clip(p.score + a_shift.get(p.group, 0))),
        "A median": mae(b, lambda p: a_median.get(p.group, p.score)),
        "B shift": mae(b, lambda p: _clip(p.score + b_shift.get(p.group, 0))),
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    parser.add_argument("results", type=Path, help="results.jsonl of a stepmath_steps run")
    add_splits(parser)


@register_study("deployment_bounds", arguments=add_arguments)
def deployment_bounds(args: argparse.Namespace) -> int:
    """Print B's MAE shipped and under each per-group predictor, per half and split; 2 when RESULTS
    cannot be read or has no gold score."""
    try:
        points = read_points(args.results)
    except (OSError, ValueError, KeyError) as err:
        raise StudyInputError(f"cannot read {args.results}: {err}") from err
    if not points:
        raise StudyInputError(f"{args.results} has no graded item with a gold score")
    names = ("A shift", "A median", "B shift")
    print("| half | split | A | B | MAE shipped | " + " | ".join(names) + " |")
    print("|---|---:|---:|---:|---:|" + "---:|" * len(names))
    for half in HALVES:
        mine = [p for p in points if p.half == half]
        changes: dict[str, list[float]] = {n: [] for n in names}
        for seed in range(args.splits):
            row = bounds(mine, seed)
            cells = []
            for n in names:
                change = row[n] / row["shipped"] - 1
                changes[n].append(change)
                cells.append(f"{row[n]:.3f} ({change * 100:+.1f}%)")
            print(
                f"| {half} | {seed} | {row['A']:.0f} | {row['B']:.0f} | {row['shipped']:.3f} | "
                + " | ".join(cells)
                + " |"
            )
        print(
            f"| {half} | mean | | | | "
            + " | ".join(f"{statistics.fmean(changes[n]) * 100:+.1f}%" for n in names)
            + " |"
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m eval_sets.studies.deployment_bounds`: the study over this process's arguments."""
    return run_study("deployment_bounds", argv)


if __name__ == "__main__":
    sys.exit(main())
