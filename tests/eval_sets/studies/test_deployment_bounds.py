"""The per-group bounds of the simulated deployment, on hand-made grades."""

from __future__ import annotations

import json

from eval_sets.deployment_items import group
from eval_sets.studies.deployment_bounds import Point, best_shift, bounds, main


def _problems(side: str, n: int, seed: int = 0) -> list[str]:
    found, i = [], 0
    while len(found) < n:
        if group(f"problem {i}", seed) == side:
            found.append(f"problem {i}")
        i += 1
    return found


def test_the_best_shift_undoes_a_constant_offset_and_clips_at_the_ends():
    points = [Point("p", "fit", "answer wrong", s, max(0, s - 2)) for s in (1, 4, 6, 9)]
    assert best_shift(points) == -2
    assert best_shift([Point("p", "fit", "proof", 10, 10)] * 3) == 0  # ties: the smallest shift


def test_a_level_learnt_on_a_carries_to_b_and_right_answers_are_left_alone():
    a = [Point(p, "fit", "answer wrong", 6, 3) for p in _problems("A", 6)]
    b = [Point(p, "fit", "answer wrong", 5, 2) for p in _problems("B", 6)]
    right = [Point(p, "fit", "answer right", 10, 9) for p in _problems("B", 3)]
    row = bounds(a + b + right, seed=0)
    assert row["A"] == 6 and row["B"] == 9
    assert row["shipped"] == (6 * 3 + 3 * 1) / 9
    assert row["A shift"] == 3 / 9  # B's wrong answers moved by A's -3 land exactly; right ones not
    assert row["A median"] == (6 * 1 + 3) / 9  # every wrong answer of B read as A's median, 3
    assert row["B shift"] == 3 / 9


def test_a_file_that_is_not_a_run_is_a_message_and_exit_2(tmp_path, capsys):
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps({"id": "x"}) + "\n", encoding="utf-8")
    assert main([str(path)]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.jsonl")]) == 2
