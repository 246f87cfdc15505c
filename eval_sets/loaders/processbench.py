"""ProcessBench (its JSON lines export): find the earliest wrong step, or none.

`label` is ProcessBench's 0-based earliest error index, -1 for a fully correct solution; we store
the 1-based step. ProcessBench carries no reference answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from eval_sets.items import Gold, GoldItem, RowError
from eval_sets.loaders._io import Row, as_text, bad, each_row, make_request, require, steps_of
from eval_sets.registry import register_loader

FIELDS = ("problem", "steps", "label", "final_answer_correct")


@register_loader("processbench", version="1")
def load_processbench(path: Path) -> Iterator[GoldItem | RowError]:
    """ProcessBench JSON lines: problem, steps, label (-1 or 0-based error), final_answer_correct."""
    def row_items(number: int, row: Row) -> Iterator[GoldItem]:
        require(path, number, row, FIELDS, "ProcessBench")
        steps = steps_of(path, number, row["steps"], "steps")
        label = row["label"]
        if not isinstance(label, int) or isinstance(label, bool) or not -1 <= label < len(steps):
            raise bad(path, number, f"label must be -1 or a 0-based step index below {len(steps)}, "
                                    f"got {label!r}")
        request = make_request(path, number, problem=as_text(row["problem"]), solution_steps=steps,
                               problem_type="calculation", mode="offline")
        gold = Gold(subset=str(row.get("subset") or row.get("generator") or path.stem),
                    process_correct=label == -1, first_error=None if label == -1 else label + 1,
                    answer_correct=bool(row["final_answer_correct"]))
        yield GoldItem(id=f"pb-{row.get('id', number)}", request=request, gold=gold)

    return each_row(path, row_items)
