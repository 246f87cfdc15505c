"""StepMathBench (StepMathAgent): Chinese model outputs with human step labels and 0-10 scores.

The free-text `model_output` is graded (the grader segments it); the human segmentation
`gold_step` is kept only through its labels, which Eq. 1 turns into `gold_score`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from eval_sets.items import Gold, GoldItem, RowError
from eval_sets.loaders._io import Row, as_text, bad, each_row, make_request, require
from eval_sets.registry import register_loader
from scoring.aggregate import parse_human_label

FIELDS = ("question", "model_output", "type", "gold_score")
TYPES = {"calculation": "calculation", "proof": "proof", "open-ended": "open_ended",
         "open_ended": "open_ended", "计算": "calculation", "证明": "proof", "开放": "open_ended"}


@register_loader("stepmath", version="1")
def load_stepmath(path: Path) -> Iterator[GoldItem | RowError]:
    """StepMathBench JSON lines: question, model_output, type, gold_score (+ answers, gold_step_score)."""
    def row_items(number: int, row: Row) -> Iterator[GoldItem]:
        require(path, number, row, FIELDS, "StepMathBench")
        kind = TYPES.get(str(row["type"]).strip().lower())
        if kind is None:
            raise bad(path, number, f"type {row['type']!r} is not Calculation, Proof or Open-ended")
        answers = row.get("answers")
        if isinstance(answers, list):
            answers = [as_text(a) for a in answers if as_text(a).strip()] or None
        elif answers is not None:
            answers = as_text(answers) or None
        try:
            labels = tuple(parse_human_label(s) for s in row.get("gold_step_score") or ()) or None
        except ValueError as err:
            raise bad(path, number, str(err)) from None
        score = row["gold_score"]
        if not isinstance(score, int) or not 0 <= score <= 10:
            raise bad(path, number, f"gold_score must be an integer 0-10, got {score!r}")
        score_01 = row.get("gold_score_01")
        request = make_request(
            path, number, problem=as_text(row["question"]), solution=as_text(row["model_output"]),
            reference_answer=answers, problem_type=kind, language="zh", mode="offline",
        )
        gold = Gold(subset=kind, score=score, score_01=None if score_01 is None else int(score_01),
                    step_labels=labels, level=row.get("level"))
        yield GoldItem(id=str(row.get("uid") or row.get("id") or f"line-{number}"),
                       request=request, gold=gold)

    return each_row(path, row_items)
