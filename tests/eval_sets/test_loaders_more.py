"""ProcessBench, PRM800K, GSM8K and MATH loaders on the bundled sets and on broken records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.loaders.gsm8k import split_gsm8k
from eval_sets.loaders.hendrycks_math import subject
from eval_sets.registry import DatasetError, load_dataset


def _write(tmp_path: Path, rows: list[dict]) -> Path:
    path = tmp_path / "data.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_processbench_label_is_the_0_based_earliest_error() -> None:
    items = load_dataset("processbench", bundled_path("processbench"))
    assert [i.gold.first_error for i in items] == [None, 2, None]
    assert [i.gold.process_correct for i in items] == [True, False, True]
    assert items[1].gold.answer_correct is False
    assert items[0].request.solution_steps[0] == "Tom has $3 \\times 12 = 36$ eggs."


def test_prm800k_picks_the_rated_completions() -> None:
    items = load_dataset("prm800k", bundled_path("prm800k"))
    first, second = items
    assert first.gold.step_ratings == (0, 1, 1) and first.gold.process_correct
    assert first.gold.step_redundant == (True, False, False)
    assert second.gold.first_error == 2 and second.gold.subset == "found_error"
    assert second.request.solution_steps[-1].startswith("The divisors of $18$")
    assert first.request.reference_answer == "32"


def test_gsm8k_strips_calculator_notes() -> None:
    assert split_gsm8k("a = <<2*3=6>>6\n#### 1,200") == ("a = 6", "1200")
    assert split_gsm8k("no marker") is None
    items = load_dataset("gsm8k", bundled_path("gsm8k"))
    assert items[0].request.reference_answer == "22"
    assert "<<" not in items[0].request.solution and items[0].request.reference_solution


def test_math_jsonl_and_folder(tmp_path) -> None:
    items = load_dataset("math", bundled_path("math"))
    assert [i.request.reference_answer for i in items] == ["4", "10", "6"]
    assert [i.gold.level for i in items] == [2, 1, 1]
    assert subject("Counting & Probability") == "counting_and_probability"
    folder = tmp_path / "test" / "intermediate_algebra"
    folder.mkdir(parents=True)
    (folder / "7.json").write_text(
        json.dumps(
            {
                "problem": "Find $x$ if $x^2 = 9$ and $x > 0$.",
                "level": "Level 3",
                "solution": "Since $x > 0$, $x = \\boxed{3}$.",
            }
        ),
        encoding="utf-8",
    )
    [item] = load_dataset("math", tmp_path, subsets=["intermediate algebra"])
    assert item.id == "math-test/intermediate_algebra/7.json" and item.gold.level == 3


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
def test_bad_records(tmp_path, kind, row, message) -> None:
    with pytest.raises(DatasetError) as err:
        load_dataset(kind, _write(tmp_path, [row]))
    assert message in str(err.value)


def test_empty_math_folder(tmp_path) -> None:
    with pytest.raises(DatasetError, match="no \\*.json problem files"):
        load_dataset("math", tmp_path)


def test_processbench_grades_with_its_reference_answer_only_when_asked(tmp_path) -> None:
    rows = [
        {
            "id": "math-7",
            "problem": "p",
            "steps": ["a", "b"],
            "label": 1,
            "final_answer_correct": False,
            "reference_answer": "\\frac{1}{2}",
        },
        {
            "id": "omnimath-3",
            "problem": "q",
            "steps": ["a"],
            "label": -1,
            "final_answer_correct": True,
        },
    ]
    path = tmp_path / "pb.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    plain = load_dataset("processbench", path)
    asked = load_dataset("processbench_with_reference", path)
    assert [i.request.reference_answer for i in plain] == [None, None]
    assert [i.request.reference_answer for i in asked] == ["\\frac{1}{2}", None]
    assert [i.gold.subset for i in plain] == ["math", "omnimath"]
    assert [i.gold.first_error for i in asked] == [2, None]
