"""StepMathBench dev items as the deployment benchmarks send them: one half, graded offline on
the human segmentation with the reference answers, as `eval_sets.calibrate.uncertainty` grades
it (`eval_sets.studies.deployment_sim`, `eval_sets.studies.memory_sim`), and the A/B split of
their problems."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval_sets.halves import half_of
from eval_sets.loaders.rows import as_text, read_records
from eval_sets.loaders.stepmath import request_fields
from scoring.score import parse_human_label


def group(problem: str, seed: int) -> str:
    """A or B, by a hash of the seed and the problem (solutions of one problem stay together)."""
    return "AB"[hashlib.sha1(f"{seed}:{problem}".encode()).digest()[0] % 2]


@dataclass(frozen=True)
class Item:
    """A StepMathBench dev item as a request, with the human labels and score."""

    problem: str
    request: dict[str, Any]
    labels: list[str]
    score: int


def load_items(path: Path, half: str) -> list[Item]:
    """The items of one half, as `eval_sets.calibrate.uncertainty.grade_stepmath` grades them."""
    items = []
    for _, row in read_records(path):
        problem = as_text(row["question"])
        if half_of(problem) != half:
            continue
        request = {**request_fields(row, human_steps=True), "mode": "offline"}
        items.append(
            Item(
                problem,
                request,
                [parse_human_label(s) for s in row["gold_step_score"]],
                int(row["gold_score"]),
            )
        )
    return items
