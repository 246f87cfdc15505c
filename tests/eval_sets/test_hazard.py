"""`fit-hazard`: which gold gives a first error, and the refitted table (h(k) by hand)."""

from __future__ import annotations

import pytest

from eval_sets.hazard import first_error_of, fit_from_items
from eval_sets.items import Gold, GoldItem
from scoring.schema import GradeRequest

STEPS = ["1 + 1 = 2.", "2 * 3 = 6.", "6 - 1 = 5."]


def item(gold: Gold, steps: list[str] | None = STEPS) -> GoldItem:
    request = (
        GradeRequest(problem="p", solution_steps=steps)
        if steps
        else GradeRequest(problem="p", solution="one line")
    )
    return GoldItem(id="x", request=request, gold=gold)


def test_step_labels_give_the_first_incorrect_or_meaningless_step() -> None:
    assert first_error_of(item(Gold(step_labels=("correct", "meaningless", "incorrect")))) == (3, 2)
    assert first_error_of(item(Gold(step_labels=("correct", "correct")))) == (2, None)


def test_a_first_error_counts_with_the_request_steps() -> None:
    assert first_error_of(item(Gold(process_correct=False, first_error=2))) == (3, 2)
    assert first_error_of(item(Gold(process_correct=True))) == (3, None)


def test_no_step_gold_is_none() -> None:
    assert first_error_of(item(Gold(score=7))) is None
    assert first_error_of(item(Gold(process_correct=False, first_error=1), steps=None)) is None


def test_the_table_by_hand() -> None:
    items = [
        item(Gold(step_labels=("incorrect", "correct"))),  # fails at 1
        item(Gold(step_labels=("correct", "incorrect"))),  # fails at 2
        item(Gold(step_labels=("correct", "correct"))),  # clean, 2 steps
        item(Gold(step_labels=("correct",))),  # clean, 1 step
        item(Gold(score=3)),  # no step gold: left out
    ]
    table, n = fit_from_items(items, max_step=3)
    # h(1) = 1 of 4 at risk; h(2) = 1 of the 2 with a second step and no earlier error; h(3): none
    assert n == 4 and table == (0.25, 0.5, 0.0)


def test_a_set_without_step_gold_is_refused() -> None:
    with pytest.raises(ValueError, match="no item carries step-level gold"):
        fit_from_items([item(Gold(score=5))])
