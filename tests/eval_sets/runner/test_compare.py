"""Two runs compared item by item: timings ignored, the first difference named by its path."""

from __future__ import annotations

import json
from pathlib import Path

from eval_sets.runner.compare import differences, first_difference, read_results, without_timings
from eval_sets.runner.store import RESULTS


def record(uid: str, score: int, elapsed: float = 1.0) -> dict:
    return {
        "id": uid,
        "gold": {"score": 10},
        "report": {
            "score": score,
            "steps": [{"label": "correct"}],
            "meta": {"elapsed_ms": elapsed, "node_ms": {"a": elapsed}, "version": "1"},
        },
        "error": None,
        "timings": {"elapsed_ms": elapsed, "finished_at": 1700000000.0 + elapsed},
    }


def run(folder: Path, records: list[dict]) -> Path:
    folder.mkdir()
    (folder / RESULTS).write_text("".join(json.dumps(r) + "\n" for r in records) + "\n")
    return folder


def test_timings_are_removed_and_the_rest_kept() -> None:
    out = without_timings(record("a", 7, elapsed=3.5))
    assert "timings" not in out
    assert out["report"]["meta"] == {"version": "1"}
    assert out["report"]["score"] == 7
    assert without_timings({"id": "x", "report": None}) == {"id": "x", "report": None}


def test_first_difference_is_a_dotted_path_with_both_values() -> None:
    a, b = record("a", 7), record("a", 7)
    b["report"]["steps"][0]["label"] = "incorrect"
    assert first_difference(a, b) == "report.steps[0].label: 'correct' != 'incorrect'"
    assert first_difference([1], [1, 2]) == "(record): [1] != [1, 2]"


def test_runs_that_differ_only_in_timings_agree(tmp_path: Path) -> None:
    left = run(tmp_path / "l", [record("a", 7, 1.0), record("b", 3, 2.0)])
    right = run(tmp_path / "r", [record("b", 3, 9.0), record("a", 7, 8.0)])
    assert differences(left, right) == []
    assert set(read_results(left)) == {"a", "b"}


def test_missing_items_and_changed_grades_are_listed(tmp_path: Path) -> None:
    left = run(tmp_path / "l", [record("a", 7), record("b", 3)])
    right = run(tmp_path / "r", [record("a", 6), record("c", 1)])
    assert differences(left, right) == [
        f"b: only in {left}",
        f"c: only in {right}",
        "a: report.score: 7 != 6",
    ]
