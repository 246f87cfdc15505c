"""`stepgrade study latency`: the memory each dev item is graded with, the per-set table, and bad
input. Times depend on the machine, so the tests read the table's shape, not its figures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent.grader import Grader
from eval_sets.items import Gold, GoldItem
from eval_sets.studies.latency import MEMORY_SOLUTIONS, dev_latency, main, memories
from scoring.judge import problem_key
from scoring.schema import GradeRequest
from tests.eval_sets.conftest import STEPMATH


def item(problem: str, steps: list[str]) -> GoldItem:
    return GoldItem(problem, GradeRequest(problem=problem, solution_steps=steps), Gold())


def test_each_item_remembers_the_other_solutions_of_its_problem() -> None:
    items = [item("Compute 2 + 3.", [f"2 + 3 = 5 ({i})."]) for i in range(MEMORY_SOLUTIONS + 2)]
    items.append(item("Compute 7 - 4.", ["7 - 4 = 3.", "So 3."]))
    known = memories(items)
    assert len(known) == len(items)
    first = known[0]
    assert first.key == problem_key("Compute 2 + 3.")
    assert len(first.solutions) == MEMORY_SOLUTIONS  # capped, and never the item itself
    assert "2 + 3 = 5 (0)." not in [s.text for sol in first.solutions for s in sol.steps]
    assert all(s.label == "correct" for sol in first.solutions for s in sol.steps)
    alone = known[-1]  # the only solution of its problem remembers itself
    assert [s.text for s in alone.solutions[0].steps] == ["7 - 4 = 3.", "So 3."]
    assert alone.solutions[0].answer is not None


@pytest.fixture(scope="module")
def grader() -> Grader:
    return Grader()


def test_the_dev_table_has_a_row_per_set_found(tmp_path: Path, grader, capsys) -> None:
    (tmp_path / "stepmathbench_dev.jsonl").write_text(
        json.dumps({**STEPMATH, "uid": "s-1"}, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    code = dev_latency(grader, tmp_path, limit=1, memory=True)
    out = capsys.readouterr().out
    assert "with a problem memory present" in out
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.strip()}
    assert rows["stepmath"][1] == "1" and rows["all"][1] == "1"
    assert "(no processbench_dev.jsonl: skipped)" in out
    assert code == (0 if "target p50 <= 25 ms, p95 <= 150 ms: met" in out else 1)


def test_a_folder_without_the_sets_measures_nothing(tmp_path: Path, grader, capsys) -> None:
    assert dev_latency(grader, tmp_path, limit=None) == 0
    assert "target" not in capsys.readouterr().out


def test_a_missing_folder_exits_2_before_grading(tmp_path: Path, capsys) -> None:
    assert main(["--data", str(tmp_path / "absent")]) == 2
    captured = capsys.readouterr()
    assert captured.err.strip() == f"latency: no such folder: {tmp_path / 'absent'}"
    assert "cold start" not in captured.out
