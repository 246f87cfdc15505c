"""StepMathBench items as the deployment studies send them, one half at a time, and the A/B split
of their problems."""

from __future__ import annotations

import json
from pathlib import Path

from eval_sets.deployment_items import Item, group, load_items
from eval_sets.halves import half_of
from tests.eval_sets.conftest import STEPMATH


def test_the_split_is_a_or_b_stable_and_changes_with_the_seed() -> None:
    problems = [f"problem {i}" for i in range(100)]
    sides = [group(p, 0) for p in problems]
    assert set(sides) == {"A", "B"} and 30 <= sides.count("A") <= 70
    assert sides == [group(p, 0) for p in problems]
    assert sides != [group(p, 1) for p in problems]


def test_one_halfs_items_are_loaded_on_the_human_steps(tmp_path: Path) -> None:
    rows = []
    for i in range(12):
        rows.append(
            {
                **STEPMATH,
                "uid": f"s-{i}",
                "question": f"计算 ${i}+3$。",
                "gold_step": [f"(1) ${i}+3={i + 3}$", "(2) 答案是。"],
                "gold_step_score": ["1", "1(0)"],
                "gold_score": 7,
            }
        )
    path = tmp_path / "stepmath.jsonl"
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    fit, check = load_items(path, "fit"), load_items(path, "check")
    assert len(fit) + len(check) == 12 and fit and check
    assert all(half_of(i.problem) == "fit" for i in fit)
    first = fit[0]
    assert isinstance(first, Item) and first.score == 7
    assert first.labels == ["correct", "meaningless"]
    assert first.request["mode"] == "offline"
    row = next(r for r in rows if r["question"] == first.problem)
    assert first.request["solution_steps"] == [row["gold_step"][0][4:], "答案是。"]
    assert first.request["reference_answer"] == ["5"] and first.request["solution"] is None
