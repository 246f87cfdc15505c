"""MR-MATH (ReasonEval's meta-evaluation sets): invalid-step and redundant-step solutions.

Process correctness follows ReasonEval's script: a solution is valid when
`model_output_solution_correctness == "correct"`; otherwise `model_output_solution_first_error_step`
(1-based) is the first invalid step. Steps before it are valid, steps after it are unlabelled.
In the redundant set `rating` holds one label per step; 0 marks a redundant step (PRM800K's
neutral rating), and a solution is redundant when any of its steps is.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from eval_sets.items import Gold, GoldItem, RowError
from eval_sets.loaders.rows import Row, as_text, bad, each_row, make_request, require, steps_of
from eval_sets.plugins import register_loader

INVALID_FIELDS = (
    "question",
    "ground_truth_answer",
    "model_output_step_format",
    "model_output_solution_correctness",
    "model_output_solution_first_error_step",
)
REDUNDANT_FIELDS = ("question", "ground_truth_answer", "model_output_step_format", "rating")


def _first_error(path: Path, number: int, raw: object, n_steps: int) -> int | None:
    if raw is None or str(raw).strip().upper() in {"N/A", "NA", "NONE", ""}:
        return None
    try:
        step = int(str(raw).strip())
    except ValueError:
        raise bad(
            path,
            number,
            f"model_output_solution_first_error_step {raw!r} is not a step number or N/A",
        ) from None
    if not 1 <= step <= n_steps:
        raise bad(path, number, f"first error step {step} is outside 1..{n_steps}")
    return step


@register_loader("mr_math_invalid", version="1")
def load_mr_math_invalid(path: Path) -> Iterator[GoldItem | RowError]:
    """MR-MATH invalid: step-formatted solutions with solution correctness and first error step."""

    def row_items(number: int, row: Row) -> Iterator[GoldItem]:
        require(path, number, row, INVALID_FIELDS, "MR-MATH invalid")
        steps = steps_of(path, number, row["model_output_step_format"], "model_output_step_format")
        verdict = str(row["model_output_solution_correctness"]).strip().lower()
        if verdict not in {"correct", "wrong", "incorrect"}:
            raise bad(
                path,
                number,
                f"model_output_solution_correctness {verdict!r} is not correct or wrong",
            )
        first = _first_error(
            path, number, row["model_output_solution_first_error_step"], len(steps)
        )
        valid = verdict == "correct"
        if not valid and first is None:
            raise bad(path, number, "a wrong solution needs a first error step")
        answer = row.get("model_output_answer_correctness")
        request = make_request(
            path,
            number,
            problem=as_text(row["question"]),
            solution_steps=steps,
            reference_answer=as_text(row["ground_truth_answer"]) or None,
            problem_type="calculation",
            language="en",
            mode="offline",
        )
        gold = Gold(
            subset=str(row.get("generator") or "all"),
            process_correct=valid,
            first_error=None if valid else first,
            answer_correct=None if answer is None else str(answer).lower() == "correct",
        )
        yield GoldItem(id=f"mr-invalid-{row.get('id', number)}", request=request, gold=gold)

    return each_row(path, row_items)


@register_loader("mr_math_redundant", version="1")
def load_mr_math_redundant(path: Path) -> Iterator[GoldItem | RowError]:
    """MR-MATH redundant: step-formatted solutions with one rating per step (0 = redundant)."""

    def row_items(number: int, row: Row) -> Iterator[GoldItem]:
        require(path, number, row, REDUNDANT_FIELDS, "MR-MATH redundant")
        steps = steps_of(path, number, row["model_output_step_format"], "model_output_step_format")
        ratings = row["rating"]
        if not isinstance(ratings, list) or len(ratings) != len(steps):
            raise bad(path, number, f"rating must list one value per step ({len(steps)} steps)")
        try:
            values = tuple(int(r) for r in ratings)
        except (TypeError, ValueError):
            raise bad(path, number, f"rating values must be integers, got {ratings!r}") from None
        request = make_request(
            path,
            number,
            problem=as_text(row["question"]),
            solution_steps=steps,
            reference_answer=as_text(row["ground_truth_answer"]) or None,
            problem_type="calculation",
            language="en",
            mode="offline",
        )
        gold = Gold(
            subset=str(row.get("generator") or "all"),
            step_ratings=values,
            step_redundant=tuple(v == 0 for v in values),
        )
        yield GoldItem(id=f"mr-redundant-{row.get('id', number)}", request=request, gold=gold)

    return each_row(path, row_items)
