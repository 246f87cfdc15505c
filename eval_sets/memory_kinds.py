"""The worth of the findings read against a problem's memory, measured where memory exists.

On the fit half of StepMathBench dev (human segmentation, five solutions per problem): each
solution in turn is the one a teacher corrected (its human step labels), and the memory check
(`scoring.judge.checks.memory`) reads the problem's other solutions against it. Each kind's
firings on human-wrong and human-right steps give its precision and likelihood ratio
(`eval_sets.calibrate.fit.stats_of_fires`, the formulas every other kind is measured by); they
go to the calibration file's own section (`scoring.judge.calibration.MEMORY_SECTION`). A step is
wrong as the step model reads it: labelled `incorrect` (a `meaningless` step follows from one).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from eval_sets.calibrate.fit import stats_of_fires
from eval_sets.calibrate.uncertainty import calibration_version
from eval_sets.halves import half_of
from eval_sets.loaders.rows import as_text, read_records
from eval_sets.loaders.stepmath import TYPES, request_fields
from scoring.judge import (
    MEMORY_KINDS,
    MEMORY_SECTION,
    Calibration,
    FindingKind,
    JudgeInput,
    KindStats,
    ProblemMemory,
    RememberedSolution,
    RememberedStep,
    find_memory,
    problem_key,
)
from scoring.schema import ProblemType
from scoring.score import parse_human_label
from scoring.verdict import AnswerVerdict

EPOCH = datetime(2000, 1, 1)


@dataclass(frozen=True)
class Labelled:
    """One solution with its human step labels (the shape a correction has)."""

    uid: str
    problem: str
    problem_type: ProblemType
    steps: tuple[str, ...]
    labels: tuple[str, ...]
    answer: str | None = None


def remembered(solutions: Sequence[Labelled]) -> ProblemMemory:
    """The memory that correcting `solutions` (of one problem) with their labels builds."""
    return ProblemMemory(
        problem_key(solutions[0].problem),
        tuple(
            RememberedSolution(
                s.uid,
                tuple(RememberedStep(t, lab) for t, lab in zip(s.steps, s.labels, strict=True)),
                EPOCH,
                s.answer,
            )
            for s in solutions
        ),
    )


def memory_fires(
    problems: Iterable[Sequence[Labelled]],
) -> tuple[dict[FindingKind, list[int]], int, int]:
    """Firings [on wrong, on right] of each memory kind, and the wrong and right steps read,
    over every choice of one corrected solution per problem."""
    fires: dict[FindingKind, list[int]] = defaultdict(lambda: [0, 0])
    wrong_total = right_total = 0
    for solutions in problems:
        for taught in solutions:
            memory = remembered([taught])
            for other in solutions:
                if other is taught:
                    continue
                inp = JudgeInput(
                    other.problem,
                    other.steps,
                    other.problem_type,
                    AnswerVerdict(None, ()),
                    memory=memory,
                )
                by_step: dict[int, set[FindingKind]] = defaultdict(set)
                for f in find_memory(inp):
                    by_step[f.step].add(f.kind)
                for i, label in enumerate(other.labels):
                    wrong = label == "incorrect"
                    wrong_total += wrong
                    right_total += not wrong
                    for kind in by_step[i]:
                        fires[kind][0 if wrong else 1] += 1
    return fires, wrong_total, right_total


def memory_kind_stats(problems: Iterable[Sequence[Labelled]]) -> dict[FindingKind, KindStats]:
    """Each memory kind's measured statistics (see the module docstring)."""
    fires, wrong, right = memory_fires(problems)
    return stats_of_fires(fires, wrong, right, sorted(MEMORY_KINDS))


def memory_section(stats: dict[FindingKind, KindStats], source: str) -> dict[str, Any]:
    """The calibration file's memory section."""
    return {
        "kinds": {k: asdict(v) for k, v in sorted(stats.items())},
        "meta": {"fitted_on": source, "fitted": datetime.now().date().isoformat()},
    }


def labelled_problems(path: Path, half: str) -> list[list[Labelled]]:
    """The half's StepMathBench dev solutions on the human segmentation, grouped by problem."""
    by: dict[str, list[Labelled]] = defaultdict(list)
    for _, row in read_records(path):
        problem = as_text(row["question"])
        if half_of(problem) != half:
            continue
        fields = request_fields(row, human_steps=True)
        by[problem].append(
            Labelled(
                str(row["uid"]),
                problem,
                TYPES[str(row["type"]).strip().lower()],
                tuple(fields["solution_steps"]),
                tuple(parse_human_label(s) for s in row["gold_step_score"]),
            )
        )
    return list(by.values())


def with_memory_section(calibration: Calibration, section: dict[str, Any]) -> Calibration:
    """The calibration with this memory section, versioned anew."""
    sections = {**calibration.sections, MEMORY_SECTION: section}
    refreshed = Calibration.from_json({**calibration.to_json(), MEMORY_SECTION: section})
    return replace(refreshed, version=calibration_version(calibration, sections))
