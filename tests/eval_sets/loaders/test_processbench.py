"""The ProcessBench loader: earliest-error labels and the reference answer when asked."""

from __future__ import annotations

import json

from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset


def test_processbench_label_is_the_0_based_earliest_error() -> None:
    items = load_dataset("processbench", bundled_path("processbench"))
    assert [i.gold.first_error for i in items] == [None, 2, None]
    assert [i.gold.process_correct for i in items] == [True, False, True]
    assert items[1].gold.answer_correct is False
    assert items[0].request.solution_steps[0] == "Tom has $3 \\times 12 = 36$ eggs."


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
