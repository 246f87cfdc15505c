"""Loaders on the bundled sets (written for this project), on broken files, and on the dev data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.registry import DatasetError, load_dataset, loader_names, register_loader
from scoring.score.stepmath import score_solution


def _write(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_registry_lists_and_refuses_duplicates() -> None:
    assert {"stepmath", "perturbation", "mr_math_invalid", "mr_math_redundant"} <= set(
        loader_names()
    )
    with pytest.raises(ValueError, match="already registered"):
        register_loader("stepmath")(lambda path: [])
    with pytest.raises(DatasetError, match="unknown dataset kind 'nope'"):
        load_dataset("nope", bundled_path("stepmath"))


def test_stepmath_bundled_gold_agrees_with_eq1() -> None:
    items = load_dataset("stepmath", bundled_path("stepmath"))
    assert [i.id for i in items][:2] == ["sg-stepmath-1", "sg-stepmath-2"]
    for item in items:
        assert item.request.language == "zh" and item.request.solution
        result = score_solution(item.gold.step_labels, item.request.problem_type)
        assert (result.score, result.binary) == (item.gold.score, item.gold.score_01)
    assert items[0].request.reference_answer == ["27"]
    assert items[3].request.reference_answer is None
    assert items[1].gold.step_labels == ("incorrect", "meaningless", "incorrect")
    assert {i.gold.subset for i in items} == {"calculation", "proof", "open_ended"}


def test_subsets_and_limit() -> None:
    items = load_dataset("stepmath", bundled_path("stepmath"), subsets=["Open-ended", "proof"])
    assert [i.gold.subset for i in items] == ["proof", "open_ended"]
    assert len(load_dataset("stepmath", bundled_path("stepmath"), limit=2)) == 2


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


@pytest.mark.parametrize(
    ("kind", "row", "message"),
    [
        ("stepmath", {"question": "q", "model_output": "a"}, "missing field(s) type, gold_score"),
        (
            "stepmath",
            {"question": "q", "model_output": "a", "type": "Essay", "gold_score": 3},
            "not Calculation, Proof or Open-ended",
        ),
        ("perturbation", {"rid": 1, "question": "q"}, "missing field(s) ground_truth_answer"),
        ("mr_math_invalid", {"question": "q"}, "model_output_step_format"),
        (
            "mr_math_redundant",
            {
                "question": "q",
                "ground_truth_answer": "1",
                "model_output_step_format": [["a"], ["b"]],
                "rating": [1],
            },
            "one value per step",
        ),
    ],
)
def test_bad_records_name_the_missing_fields(tmp_path, kind, row, message) -> None:
    with pytest.raises(DatasetError, match="data.jsonl:1") as err:
        load_dataset(kind, _write(tmp_path, [row]))
    assert message in str(err.value)


def test_not_json_and_missing_file(tmp_path) -> None:
    path = tmp_path / "data.jsonl"
    path.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(DatasetError, match="not valid JSON"):
        load_dataset("stepmath", path)
    with pytest.raises(DatasetError, match="no such file"):
        load_dataset("stepmath", tmp_path / "absent.jsonl")


def test_dev_files_load(shared_data) -> None:
    path = shared_data / "stepmathbench_dev.jsonl"
    rows = sum(1 for line in path.open(encoding="utf-8") if line.strip())
    assert len(load_dataset("stepmath", path)) == rows
    pert = load_dataset("perturbation", shared_data / "perturbation_dev.jsonl")
    assert len(pert) == 267 + 46
    assert sum(not i.gold.is_perturbed for i in pert) == 46
    invalid = load_dataset("mr_math_invalid", shared_data / "mr_math_invalid_dev.jsonl")
    assert sum(i.gold.process_correct for i in invalid) == 16
    assert len(load_dataset("mr_math_redundant", shared_data / "mr_math_redundant_dev.jsonl")) == 60
