"""Labelled steps from each kind of set: wrong, right or unlabelled per step, on hand-written
rows and the bundled sets."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.calibrate.labelled import (
    SOURCE_LEVELS,
    first_error_set,
    labelled_sets,
    stepmath_human,
)
from eval_sets.halves import half_of

ROW = {
    "uid": "s-1",
    "question": "计算 $(2+3) \\times 2$。",
    "model_output": "$2+3=5$。\n$5 \\times 2=12$，答案是 12。",
    "gold_step": ["(1) $2+3=5$。", "(2) $5 \\times 2=12$，答案是 12。"],
    "gold_step_score": ["1", "0"],
    "type": "Calculation",
    "gold_score": 6,
    "answers": ["10"],
    "level": "2",
}


def write(path: Path, rows: list[dict]) -> Path:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    return path


def test_stepmath_on_the_human_steps(tmp_path: Path) -> None:
    [sol] = stepmath_human(write(tmp_path / "s.jsonl", [ROW]))
    assert sol.set == "stepmath_human" and sol.id == "s-1" and sol.half == half_of(ROW["question"])
    assert sol.steps == ("$2+3=5$。", "$5 \\times 2=12$，答案是 12。")
    assert sol.wrong == (False, True) and sol.human_labels == ("correct", "incorrect")
    assert sol.problem_type == "calculation" and sol.language == "zh"
    assert sol.references == ("10",) and sol.gold_score == 6 and sol.level == 2
    assert sol.natural is False and sol.scored is False


def test_rows_whose_labels_do_not_match_their_steps_are_skipped(tmp_path: Path) -> None:
    bad = {**ROW, "gold_step_score": ["1"]}
    assert list(stepmath_human(write(tmp_path / "s.jsonl", [bad]))) == []


def test_a_meaningless_step_is_right_in_itself(tmp_path: Path) -> None:
    row = {**ROW, "gold_step_score": ["0", "1(0)"], "level": None}
    [sol] = stepmath_human(write(tmp_path / "s.jsonl", [row]))
    assert sol.wrong == (True, False) and sol.human_labels == ("incorrect", "meaningless")
    assert sol.level is None


def test_first_error_sets_are_right_before_wrong_at_and_unlabelled_after() -> None:
    solutions = {
        s.id: s for s in first_error_set("processbench", bundled_path("processbench"), "pb")
    }
    assert solutions["pb-demo-0"].wrong == (False, False, False)
    assert solutions["pb-demo-1"].wrong == (False, True, None, None)
    assert solutions["pb-demo-0"].set == "pb" and solutions["pb-demo-0"].language == "en"


def test_a_repeated_step_is_not_wrong_and_originals_are_right_throughout() -> None:
    perturbed = {
        s.subset: s
        for s in first_error_set("perturbation", bundled_path("perturbation"), "pt", natural=False)
    }
    assert perturbed["repeat step"].wrong == (False, False, None, None, None)
    assert perturbed["original"].wrong == (False,) * len(perturbed["original"].steps)
    assert perturbed["random number"].wrong[:2] == (False, True)
    assert all(not s.natural for s in perturbed.values())


def test_sources_are_levels() -> None:
    assert SOURCE_LEVELS["gsm8k"] < SOURCE_LEVELS["math"] < SOURCE_LEVELS["omnimath"]


@pytest.fixture
def dev_folder(tmp_path: Path) -> Path:
    for kind, name in [
        ("processbench", "processbench_dev.jsonl"),
        ("mr_math_invalid", "mr_math_invalid_dev.jsonl"),
        ("perturbation", "perturbation_dev.jsonl"),
    ]:
        shutil.copy(bundled_path(kind), tmp_path / name)
    write(tmp_path / "stepmathbench_dev.jsonl", [ROW])
    return tmp_path


def test_every_set_found_is_read_processbench_twice_at_half_weight(dev_folder: Path) -> None:
    solutions = list(labelled_sets(dev_folder))
    counts = Counter(s.set for s in solutions)
    assert counts["stepmath"] == counts["stepmath_human"] == 1
    assert counts["processbench"] == counts["processbench+ref"] == 3
    assert counts["mr_math_invalid"] == 4 and counts["perturbation"] == 8
    plain = [s for s in solutions if s.set == "processbench"]
    with_ref = [s for s in solutions if s.set == "processbench+ref"]
    assert all(s.weight == 0.5 and s.duplicate and s.references == () for s in plain)
    assert all(s.weight == 0.5 and not s.scored for s in with_ref)


def test_a_folder_without_the_sets_yields_nothing(tmp_path: Path) -> None:
    assert list(labelled_sets(tmp_path)) == []
