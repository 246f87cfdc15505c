"""ProcessBench (its JSON lines export): find the earliest wrong step, or none.

`label` is ProcessBench's 0-based earliest error index, -1 for a fully correct solution; we store
the 1-based step. ProcessBench is benchmarked without a reference answer (`processbench`); rows
that carry a `reference_answer` can be graded with it (`processbench_with_reference`), and the
final-answer check then joins the evidence.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from eval_sets.items import Gold, GoldItem, RowError
from eval_sets.loaders.rows import Row, as_text, bad, each_row, make_request, require, steps_of
from eval_sets.plugins import register_loader

FIELDS = ("problem", "steps", "label", "final_answer_correct")


def _items(path: Path, with_reference: bool) -> Iterator[GoldItem | RowError]:
    def row_items(number: int, row: Row) -> Iterator[GoldItem]:
        require(path, number, row, FIELDS, "ProcessBench")
        steps = steps_of(path, number, row["steps"], "steps")
        label = row["label"]
        if not isinstance(label, int) or isinstance(label, bool) or not -1 <= label < len(steps):
            raise bad(
                path,
                number,
                f"label must be -1 or a 0-based step index below {len(steps)}, got {label!r}",
            )
        reference = as_text(row.get("reference_answer")).strip() if with_reference else ""
        request = make_request(
            path,
            number,
            problem=as_text(row["problem"]),
            solution_steps=steps,
            reference_answer=reference or None,
            problem_type="calculation",
            mode="offline",
        )
        gold = Gold(
            subset=str(row.get("subset") or str(row.get("id", "")).split("-")[0] or path.stem),
            process_correct=label == -1,
            first_error=None if label == -1 else label + 1,
            answer_correct=bool(row["final_answer_correct"]),
        )
        yield GoldItem(id=f"pb-{row.get('id', number)}", request=request, gold=gold)

    return each_row(path, row_items)


@register_loader("processbench", version="2")
def load_processbench(path: Path) -> Iterator[GoldItem | RowError]:
    """ProcessBench JSON lines: problem, steps, label (-1 or 0-based error), final_answer_correct."""
    return _items(path, with_reference=False)


@register_loader("processbench_with_reference", version="1")
def load_processbench_with_reference(path: Path) -> Iterator[GoldItem | RowError]:
    """ProcessBench with its `reference_answer` (where a row has one) given to the grader."""
    return _items(path, with_reference=True)
