"""The memory kinds measured where memory exists: the memory a correction builds, the firings
over every choice of the corrected solution, the section written, and the rows read."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from eval_sets.halves import half_of
from eval_sets.memory_kinds import (
    EPOCH,
    Labelled,
    labelled_problems,
    memory_fires,
    memory_kind_stats,
    memory_section,
    remembered,
    with_memory_section,
)
from scoring.judge import DEFAULT_PATH, MEMORY_KINDS, MEMORY_SECTION, load_calibration, problem_key
from tests.eval_sets.conftest import STEPMATH

PROBLEM = "Compute (2 + 3) * 2."
SLIP = ("2 + 3 = 6.", "6 * 2 = 12.")
SLIP_LABELS = ("incorrect", "meaningless")
RIGHT = Labelled("c", PROBLEM, "calculation", ("2 + 3 = 5.", "5 * 2 = 10."), ("correct",) * 2)
SLIPS = [Labelled(uid, PROBLEM, "calculation", SLIP, SLIP_LABELS) for uid in ("a", "b")]


def test_a_correction_remembers_its_steps_with_their_labels() -> None:
    memory = remembered([SLIPS[0], RIGHT])
    assert memory.key == problem_key(PROBLEM)
    assert [s.source for s in memory.solutions] == ["a", "c"]
    assert [(t.text, t.label) for t in memory.solutions[0].steps] == list(zip(SLIP, SLIP_LABELS))
    assert all(s.corrected_at == EPOCH for s in memory.solutions)


def test_firings_over_every_choice_of_the_corrected_solution() -> None:
    fires, wrong, right = memory_fires([[*SLIPS, RIGHT]])
    # 3 choices x 2 other solutions x 2 steps; a wrong step each time a or b is read
    assert (wrong, right) == (4, 8)
    assert fires["memory_mistake"][0] == 2  # the same slip, found with either one corrected
    assert fires["memory_divergence"] == [2, 0]  # the slips leave the accepted path; c does not
    assert set(fires) <= MEMORY_KINDS


def test_a_problem_with_one_solution_reads_nothing() -> None:
    fires, wrong, right = memory_fires([[RIGHT]])
    assert (dict(fires), wrong, right) == ({}, 0, 0)


def test_stats_cover_every_memory_kind_and_the_section_says_where_they_come_from() -> None:
    stats = memory_kind_stats([[*SLIPS, RIGHT]])
    assert set(stats) == MEMORY_KINDS
    section = memory_section(stats, "hand-made problems")
    assert list(section["kinds"]) == sorted(MEMORY_KINDS)
    assert section["meta"] == {
        "fitted_on": "hand-made problems",
        "fitted": date.today().isoformat(),
    }


def test_the_section_goes_into_the_calibration_under_a_new_version() -> None:
    calibration = load_calibration(DEFAULT_PATH)
    section = memory_section(memory_kind_stats([[*SLIPS, RIGHT]]), "hand-made problems")
    updated = with_memory_section(calibration, section)
    assert updated.version != calibration.version
    assert updated.version.split("-")[0] == calibration.version.split("-")[0]
    assert updated.to_json()[MEMORY_SECTION]["meta"]["fitted_on"] == "hand-made problems"
    assert set(updated.memory_kinds) == MEMORY_KINDS


def test_one_halfs_solutions_grouped_by_problem(tmp_path: Path) -> None:
    rows = [
        {
            **STEPMATH,
            "uid": f"s-{i}-{k}",
            "question": f"计算 ${i}+3$。",
            "gold_step": [f"(1) ${i}+3={i + 3}$", "(2) 答案是。"],
            "gold_step_score": ["1", "1(0)"],
        }
        for i in range(8)
        for k in range(2)
    ]
    path = tmp_path / "stepmath.jsonl"
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    fit, check = labelled_problems(path, "fit"), labelled_problems(path, "check")
    assert len(fit) + len(check) == 8 and all(len(p) == 2 for p in fit + check)
    first = fit[0][0]
    assert half_of(first.problem) == "fit" and first.problem_type == "calculation"
    assert first.labels == ("correct", "meaningless") and first.steps[1] == "答案是。"
