"""The dataset and metric registries: names listed, duplicates refused, unknown names named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.metrics import mse
from eval_sets.registry import (
    DatasetError,
    get_metric,
    load_dataset,
    loader_names,
    register_loader,
    register_metric,
)


def test_metric_registry_refuses_duplicates() -> None:
    assert get_metric("mse") is mse
    with pytest.raises(ValueError, match="already registered"):
        register_metric("mse")(lambda: 0.0)
    with pytest.raises(KeyError, match="unknown metric"):
        get_metric("nope")


def test_registry_lists_and_refuses_duplicates() -> None:
    assert {"stepmath", "perturbation", "mr_math_invalid", "mr_math_redundant"} <= set(
        loader_names()
    )
    with pytest.raises(ValueError, match="already registered"):
        register_loader("stepmath")(lambda path: [])
    with pytest.raises(DatasetError, match="unknown dataset kind 'nope'"):
        load_dataset("nope", bundled_path("stepmath"))


def _write(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_subsets_and_limit() -> None:
    items = load_dataset("stepmath", bundled_path("stepmath"), subsets=["Open-ended", "proof"])
    assert [i.gold.subset for i in items] == ["proof", "open_ended"]
    assert len(load_dataset("stepmath", bundled_path("stepmath"), limit=2)) == 2


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


@pytest.mark.parametrize(
    ("kind", "row", "message"),
    [
        (
            "processbench",
            {"problem": "p", "steps": ["a"], "label": 3, "final_answer_correct": True},
            "label must be -1 or a 0-based step index below 1",
        ),
        ("processbench", {"problem": "p"}, "missing field(s) steps, label, final_answer_correct"),
        ("prm800k", {"question": "p", "label": {}}, "question must be an object"),
        ("gsm8k", {"question": "q", "answer": "42"}, "no '#### <final answer>' line"),
        ("math", {"problem": "p", "solution": "no box here."}, "no \\boxed{}"),
    ],
)
def test_bad_records_of_the_other_sets_say_what_is_wrong(tmp_path, kind, row, message) -> None:
    with pytest.raises(DatasetError) as err:
        load_dataset(kind, _write(tmp_path, [row]))
    assert message in str(err.value)
