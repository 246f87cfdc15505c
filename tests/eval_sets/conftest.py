"""Helpers shared by the eval_sets tests: a StepMathBench row and a file with broken rows, a long
MR-MATH file, a model oracle for the bundled MR-MATH items, a red-team plain solution, and the
rows of a result table by their first cell."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.redteam import PlainSolution
from eval_sets.registry import load_dataset

STEPMATH = {
    "question": "计算 $2+3$。",
    "model_output": "$2+3=5$，所以答案是 5。",
    "type": "Calculation",
    "gold_score": 10,
    "answers": ["5"],
}

# A wrong product with no text addressed to the grader, and its steps' honest labels.
WRONG_PRODUCT = PlainSolution(
    id="s1",
    language="en",
    problem="Compute 6 * 7.",
    reference_answer="42",
    steps=("6 * 7 = 48.", "So the answer is 48."),
    labels=("incorrect", "correct"),
)

Oracle = Callable[[str, str], dict | None]


def write_lines(folder: Path, lines: list[str], name: str = "data.jsonl") -> Path:
    path = folder / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.fixture
def stepmath_row() -> dict:
    """One good StepMathBench row (written for this project)."""
    return dict(STEPMATH)


@pytest.fixture
def broken_stepmath(tmp_path: Path) -> Path:
    """Line 1 good, 2 not JSON, 3 missing gold_score, 4 an empty solution, 5 good."""
    rows = [
        json.dumps({**STEPMATH, "uid": "good-1"}, ensure_ascii=False),
        "{not json",
        json.dumps({k: v for k, v in STEPMATH.items() if k != "gold_score"}),
        json.dumps({**STEPMATH, "uid": "empty", "model_output": "", "gold_score": 0}),
        json.dumps({**STEPMATH, "uid": "good-2"}, ensure_ascii=False),
    ]
    return write_lines(tmp_path, rows)


@pytest.fixture
def mr_math_oracle() -> Oracle:
    """What a model answers for each bundled MR-MATH item: every step correct."""
    items = load_dataset("mr_math_invalid", bundled_path("mr_math_invalid"))
    steps = {i.request.problem: len(i.request.solution_steps or []) for i in items}

    def answer(operation: str, prompt: str) -> dict | None:
        n = next((v for k, v in steps.items() if k in prompt), None)
        if n is None:
            return None
        if operation == "difficulty":
            return {
                "level": 2,
                "process_evaluation_needed": True,
                "problem_type": "calculation",
                "reason": "two steps or more",
            }
        if operation == "step_judgement":
            return {
                "steps": [
                    {
                        "index": i,
                        "label": "correct",
                        "reason": "fine",
                        "depends_on": [],
                        "reference_steps": [],
                        "error_categories": [],
                    }
                    for i in range(1, n + 1)
                ]
            }
        if operation == "answer_judgement":
            return {"correct": True, "reason": "same value"}
        return None

    return answer


@pytest.fixture
def repeated_mr_math(tmp_path: Path) -> Callable[[int], Path]:
    """`n` MR-MATH-style items: the bundled rows repeated under distinct ids `mr-invalid-<i>`."""

    def write(n: int) -> Path:
        rows = [json.loads(x) for x in bundled_path("mr_math_invalid").read_text().splitlines()]
        return write_lines(
            tmp_path, [json.dumps({**rows[i % len(rows)], "id": i}) for i in range(n)], "many.jsonl"
        )

    return write


def rows_of(table) -> dict[str, dict[str, object]]:
    return {str(r[0]): dict(zip(table.columns[1:], r[1:], strict=True)) for r in table.rows}
