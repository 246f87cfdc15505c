"""The MR-MATH loaders (invalid and redundant steps) on the bundled sets."""

from __future__ import annotations

from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset


def test_mr_math_invalid() -> None:
    items = load_dataset("mr_math_invalid", bundled_path("mr_math_invalid"))
    valid, wrong = items[0], items[1]
    assert valid.gold.process_correct is True and valid.gold.first_error is None
    assert wrong.gold.process_correct is False and wrong.gold.first_error == 1
    assert items[3].gold.answer_correct is True and items[3].gold.first_error == 2
    assert valid.request.solution_steps[0] == "1. First multiply: $7 \\cdot 8 = 56$."
    assert valid.request.reference_answer == "50"


def test_mr_math_redundant() -> None:
    items = load_dataset("mr_math_redundant", bundled_path("mr_math_redundant"))
    assert items[1].gold.step_redundant == (False, True, False, False)
    assert items[1].gold.step_ratings == (1, 0, 1, 1)
