"""The interval statistics' refit: StepMathBench rows graded on the human steps (and cached by
calibration version and mode), the version a refit names, and its command's bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from eval_sets.calibrate import uncertainty
from eval_sets.calibrate.uncertainty import (
    calibration_version,
    grade_stepmath,
    main,
    with_uncertainty,
)
from eval_sets.halves import half_of
from scoring.judge import DEFAULT_PATH, load_calibration
from scoring.score import SECTION, uncertainty_of
from tests.eval_sets.conftest import STEPMATH


def rows() -> list[dict]:
    return [
        {
            **STEPMATH,
            "uid": f"s-{i}",
            "question": f"计算 ${i}+3$。",
            "gold_step": [f"(1) ${i}+3={i + 3 + (i % 2)}$", "(2) 所以答案是。"],
            "gold_step_score": ["1" if i % 2 == 0 else "0", "1(0)"],
            "gold_score": 10 if i % 2 == 0 else 0,
            "gold_score_01": 1 if i % 2 == 0 else 0,
            "answers": [str(i + 3)],
        }
        for i in range(3)
    ]


@pytest.fixture(scope="module")
def calibration():
    return load_calibration(DEFAULT_PATH)


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "stepmathbench_dev.jsonl"
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows()), encoding="utf-8"
    )
    return path


def test_rows_are_graded_on_the_human_steps_with_their_labels(data, calibration) -> None:
    graded = grade_stepmath(data, None, calibration)
    assert [g.uid for g in graded] == ["s-0", "s-1", "s-2"]
    first, second = graded[0], graded[1]
    assert first.human == 10 and first.half == half_of("计算 $0+3$。") and first.failed is False
    assert len(first.p_wrong) == 2 and first.wrong == (False, False)
    assert second.wrong == (True, False) and second.failed is True  # meaningless is not wrong


def test_own_steps_carry_no_step_labels(data, calibration) -> None:
    graded = grade_stepmath(data, None, calibration, own_steps=True)
    assert all(set(g.wrong) == {None} for g in graded)


def test_the_cache_is_read_for_the_same_version_and_kept_for_others(
    data, calibration, tmp_path: Path, monkeypatch
) -> None:
    cache = tmp_path / "cache.jsonl"
    other = json.dumps({"uid": "s-0", "calibration": "other-1", "tag": "offline", "report": {}})
    cache.write_text(other + "\n", encoding="utf-8")
    first = grade_stepmath(data, cache, calibration)
    lines = cache.read_text(encoding="utf-8").splitlines()
    assert lines[0] == other and len(lines) == 4

    def no_grading(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("graded again although cached")

    monkeypatch.setattr(uncertainty, "_grade", no_grading)
    again = grade_stepmath(data, cache, calibration)
    assert [(g.uid, g.p_wrong) for g in again] == [(g.uid, g.p_wrong) for g in first]


def test_a_refit_names_a_new_version_in_the_same_format(calibration) -> None:
    model = uncertainty_of(calibration)
    assert model is not None
    same = with_uncertainty(calibration, model)
    assert same.sections[SECTION] == model.to_json()
    prefix = calibration.version.split("-")[0]
    assert same.version.startswith(f"{prefix}-")
    changed = calibration_version(calibration, {**calibration.sections, "extra": {"a": 1}})
    assert changed != calibration_version(calibration, dict(calibration.sections))


def test_a_folder_without_the_set_exits_2(tmp_path: Path, capsys) -> None:
    out = tmp_path / "calibration.json"
    shutil.copy(DEFAULT_PATH, out)
    assert main(["--data", str(tmp_path), "--out", str(out)]) == 2
    assert "stepmathbench_dev.jsonl not found" in capsys.readouterr().err
    assert out.read_bytes() == Path(DEFAULT_PATH).read_bytes()


def test_a_calibration_that_cannot_be_read_exits_2(tmp_path: Path, capsys) -> None:
    out = tmp_path / "calibration.json"
    out.write_text("{not json", encoding="utf-8")
    assert main(["--data", str(tmp_path), "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith("uncertainty: ")
