"""The StepMathBench loaders: gold scores, reference answers and the human step segmentation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset
from scoring.score.stepmath import score_solution


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


def test_stepmath_steps_grades_the_human_segmentation(tmp_path: Path) -> None:
    row = {
        "question": "计算 $2+3$。",
        "model_output": "$2+3=5$，答案 5。",
        "type": "Calculation",
        "gold_score": 10,
        "answers": ["5"],
        "gold_step": ["(1) $2+3=5$", "（2）所以答案是 5。"],
        "gold_step_score": ["1", "1"],
    }
    path = tmp_path / "s.jsonl"
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    [got] = load_dataset("stepmath_steps", path)
    assert got.request.solution is None
    assert got.request.solution_steps == ["$2+3=5$", "所以答案是 5。"]
    assert got.gold.step_labels == ("correct", "correct")
    [free] = load_dataset("stepmath", path)
    assert free.request.solution == row["model_output"] and free.request.solution_steps is None
    del row["gold_step"]
    path.write_text(json.dumps(row, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="missing field.*gold_step"):
        load_dataset("stepmath_steps", path)
