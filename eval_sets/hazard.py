"""`fit-hazard`: the first-error hazard table of docs/architecture.md 4.8, refitted from any labelled set."""

from __future__ import annotations

from collections.abc import Sequence

from eval_sets.items import GoldItem
from scoring.score import fit_hazard


def first_error_of(item: GoldItem) -> tuple[int, int | None] | None:
    """(number of steps, 1-based first error or None) from the gold, None when not labelled."""
    gold = item.gold
    if gold.step_labels is not None:
        first = next(
            (
                i
                for i, label in enumerate(gold.step_labels, 1)
                if label in {"incorrect", "meaningless"}
            ),
            None,
        )
        return len(gold.step_labels), first
    if gold.process_correct is not None and item.request.solution_steps is not None:
        return len(item.request.solution_steps), gold.first_error
    return None


def fit_from_items(items: Sequence[GoldItem], max_step: int = 12) -> tuple[tuple[float, ...], int]:
    """The hazard table and how many labelled solutions it was fitted on."""
    pairs = [p for p in (first_error_of(i) for i in items) if p is not None]
    if not pairs:
        raise ValueError("no item carries step-level gold (step labels or a first error step)")
    return fit_hazard(pairs, max_step=max_step), len(pairs)
