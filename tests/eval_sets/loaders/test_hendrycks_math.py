"""The MATH loader: JSONL files, folders of problem files, subjects and levels."""

from __future__ import annotations

import json

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.loaders.hendrycks_math import subject
from eval_sets.registry import DatasetError, load_dataset


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


def test_empty_math_folder(tmp_path) -> None:
    with pytest.raises(DatasetError, match="no \\*.json problem files"):
        load_dataset("math", tmp_path)
