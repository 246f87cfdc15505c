"""StepMathBench (StepMathAgent): Chinese model outputs with human step labels and 0-10 scores.

`stepmath`: the free-text `model_output` is graded (the grader segments it); the human
segmentation `gold_step` is kept only through its labels, which Eq. 1 turns into `gold_score`.
`stepmath_steps`: the human segmentation is graded as `solution_steps` (its "(1)" numbering
removed), so that each step's P(wrong) lines up with the human label of the same step (the step
ECE of the benchmark summary) and the grades are those the score-interval model is fitted on
(`eval_sets.calibrate.uncertainty`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from eval_sets.items import Gold, GoldItem, RowError
from eval_sets.loaders.rows import Row, as_text, bad, each_row, make_request, require, steps_of
from eval_sets.plugins import register_loader
from scoring.schema import ProblemType
from scoring.score import parse_human_label

FIELDS = ("question", "model_output", "type", "gold_score")
TYPES: dict[str, ProblemType] = {
    "calculation": "calculation",
    "proof": "proof",
    "open-ended": "open_ended",
    "open_ended": "open_ended",
    "计算": "calculation",
    "证明": "proof",
    "开放": "open_ended",
}
HUMAN_NUMBER = re.compile(r"^\s*[(（]\d+[)）]\s*")


def without_human_number(step: str) -> str:
    """A human step without the "(1)" numbering StepMathBench's annotators put before it."""
    return HUMAN_NUMBER.sub("", step).strip()


def reference_answers(row: Row) -> str | list[str] | None:
    """The row's `answers` as a reference: any of a list counts; blanks are none."""
    answers = row.get("answers")
    if isinstance(answers, list):
        return [as_text(a) for a in answers if as_text(a).strip()] or None
    return None if answers is None else as_text(answers) or None


def request_fields(row: Row, *, human_steps: bool) -> dict[str, Any]:
    """The GradeRequest fields of a StepMathBench row, mode aside: its solution as free text, or
    (`human_steps`) the human segmentation `gold_step` as the solution's steps."""
    return {
        "problem": as_text(row["question"]),
        "solution": None if human_steps else as_text(row["model_output"]),
        "solution_steps": [without_human_number(as_text(s)) for s in row["gold_step"]]
        if human_steps
        else None,
        "reference_answer": reference_answers(row),
        "problem_type": TYPES[str(row["type"]).strip().lower()],
        "language": "zh",
    }


@register_loader("stepmath", version="1")
def load_stepmath(path: Path) -> Iterator[GoldItem | RowError]:
    """StepMathBench JSON lines: question, model_output, type, gold_score (+ answers, gold_step_score)."""
    return _load(path, human_steps=False)


@register_loader(
    "stepmath_steps",
    version="1",
    description="StepMathBench graded on the human segmentation (gold_step)",
)
def load_stepmath_steps(path: Path) -> Iterator[GoldItem | RowError]:
    """StepMathBench with the human steps `gold_step` as the solution's steps."""
    return _load(path, human_steps=True)


def _load(path: Path, *, human_steps: bool) -> Iterator[GoldItem | RowError]:
    fields = ("question", "gold_step", "type", "gold_score") if human_steps else FIELDS

    def row_items(number: int, row: Row) -> Iterator[GoldItem]:
        require(path, number, row, fields, "StepMathBench")
        kind = TYPES.get(str(row["type"]).strip().lower())
        if kind is None:
            raise bad(path, number, f"type {row['type']!r} is not Calculation, Proof or Open-ended")
        try:
            labels = tuple(parse_human_label(s) for s in row.get("gold_step_score") or ()) or None
        except ValueError as err:
            raise bad(path, number, str(err)) from None
        score = row["gold_score"]
        if not isinstance(score, int) or not 0 <= score <= 10:
            raise bad(path, number, f"gold_score must be an integer 0-10, got {score!r}")
        score_01 = row.get("gold_score_01")
        if human_steps:
            steps_of(path, number, row["gold_step"], "gold_step")
        request = make_request(
            path, number, **request_fields(row, human_steps=human_steps), mode="offline"
        )
        gold = Gold(
            subset=kind,
            score=score,
            score_01=None if score_01 is None else int(score_01),
            step_labels=labels,
            level=row.get("level"),
        )
        yield GoldItem(
            id=str(row.get("uid") or row.get("id") or f"line-{number}"), request=request, gold=gold
        )

    return each_row(path, row_items)
