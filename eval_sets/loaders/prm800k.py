"""PRM800K (phase 1 or 2 JSON lines): human ratings -1/0/+1 for each step of a model's solution.

The graded solution is, per step, the chosen completion (else the human completion, else the
only completion shown: phase 2's last, rejected step). +1 valid, 0 neutral (ReasonEval reads it
as redundant), -1 invalid; the first -1 is the first error.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from eval_sets.items import Gold, GoldItem, RowError
from eval_sets.loaders.rows import Row, as_text, bad, each_row, make_request, require
from eval_sets.plugins import register_loader

FIELDS = ("question", "label")


def _pick(step: dict[str, Any]) -> tuple[str, int | None] | None:
    completions = step.get("completions") or []
    chosen = step.get("chosen_completion")
    if isinstance(chosen, int) and 0 <= chosen < len(completions):
        pick = completions[chosen]
    elif isinstance(step.get("human_completion"), dict):
        pick = step["human_completion"]
    elif completions:
        pick = completions[0]
    else:
        return None
    rating = pick.get("rating")
    return as_text(pick.get("text")), None if rating is None else int(rating)


@register_loader("prm800k", version="1")
def load_prm800k(path: Path) -> Iterator[GoldItem | RowError]:
    """PRM800K JSON lines: question {problem, ground_truth_answer}, label {steps [completions]}."""

    def row_items(number: int, row: Row) -> Iterator[GoldItem]:
        require(path, number, row, FIELDS, "PRM800K")
        question, label = row["question"], row["label"]
        if not isinstance(question, dict) or "problem" not in question:
            raise bad(
                path, number, "question must be an object with problem (and ground_truth_answer)"
            )
        if not isinstance(label, dict) or not isinstance(label.get("steps"), list):
            raise bad(path, number, "label must be an object with a list of steps")
        picked = [p for p in (_pick(s) for s in label["steps"] if isinstance(s, dict)) if p]
        if not picked:
            return  # a labeller skipped the problem: nothing to grade
        texts = [t for t, _ in picked]
        ratings = tuple(0 if r is None else r for _, r in picked)
        first = next((i for i, r in enumerate(ratings, 1) if r == -1), None)
        request = make_request(
            path,
            number,
            problem=as_text(question["problem"]),
            solution_steps=texts,
            reference_answer=as_text(question.get("ground_truth_answer")) or None,
            problem_type="calculation",
            language="en",
            mode="offline",
        )
        gold = Gold(
            subset=str(label.get("finish_reason") or "unknown"),
            step_ratings=ratings,
            process_correct=first is None,
            first_error=first,
            step_redundant=tuple(r == 0 for r in ratings),
        )
        yield GoldItem(id=f"prm-{number}", request=request, gold=gold)

    return each_row(path, row_items)
