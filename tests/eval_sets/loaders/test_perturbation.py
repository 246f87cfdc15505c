"""The perturbation loader: each original once, each perturbed step named."""

from __future__ import annotations

from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset


def test_perturbation_emits_each_original_once() -> None:
    items = load_dataset("perturbation", bundled_path("perturbation"))
    ids = [i.id for i in items]
    assert ids == [
        "pert-orig-0",
        "pert-0",
        "pert-1",
        "pert-2",
        "pert-orig-1",
        "pert-3",
        "pert-4",
        "pert-5",
    ]
    by_id = {i.id: i.gold for i in items}
    assert by_id["pert-orig-0"].is_perturbed is False and by_id["pert-orig-0"].process_correct
    assert (by_id["pert-0"].perturbed_step, by_id["pert-0"].first_error) == (2, 2)  # tags 1
    assert by_id["pert-1"].process_correct and by_id["pert-1"].step_redundant[2]  # repeat: copy
    assert by_id["pert-2"].first_error == 2  # swap steps [1, 2]
    assert by_id["pert-4"].first_error == 2  # remove step 1: step 2 lost its premise
    assert by_id["pert-5"].first_error == 1  # swap solutions
    originals = [i for i in items if not i.gold.is_perturbed]
    assert originals[0].request.solution_steps[1] == "Subtracting $4$ gives $3n = 15$."
