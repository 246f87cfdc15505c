"""The PRM800K loader: which completions are read and how their ratings become labels."""

from __future__ import annotations

from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset


def test_prm800k_picks_the_rated_completions() -> None:
    items = load_dataset("prm800k", bundled_path("prm800k"))
    first, second = items
    assert first.gold.step_ratings == (0, 1, 1) and first.gold.process_correct
    assert first.gold.step_redundant == (True, False, False)
    assert second.gold.first_error == 2 and second.gold.subset == "found_error"
    assert second.request.solution_steps[-1].startswith("The divisors of $18$")
    assert first.request.reference_answer == "32"
