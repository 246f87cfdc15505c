"""The score interval from hand-written cells: it holds the score and the expected score within
0..10; the statistics round-trip, and bad or unreadable ones fail clearly."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from scoring.score.interval import (
    DEFAULT_PATH,
    Cell,
    UncertaintyError,
    UncertaintyModel,
    load_uncertainty,
    score_interval,
)
from tests.scoring.score.grades import MODEL, features


@pytest.mark.parametrize("score", range(11))
@pytest.mark.parametrize("verdict", ["right", "wrong", "none"])
def test_the_interval_contains_the_score_within_0_to_10(score: int, verdict: str) -> None:
    lo, hi = score_interval(features(verdict=verdict, score=score), MODEL)
    assert 0 <= lo <= score <= hi <= 10


def test_hand_computed_intervals() -> None:
    # right: [10 - 1, 10 + 0] = [9, 10]
    assert score_interval(features(score=10), MODEL) == (9, 10)
    # wrong, score 3 = centre: spread 1 -> [3 - 2, 3 + 1.5] = [1, 4] (inward to integers)
    assert score_interval(features(verdict="wrong", score=3), MODEL) == (1, 4)
    # wrong, score 7: spread 1 + 4 = 5 -> [3 - 10, 3 + 7.5] -> [0, 10]
    assert score_interval(features(verdict="wrong", score=7), MODEL) == (0, 10)
    # no verdict: no such cell, the pooled one: [5 - 2, 5 + 2]
    assert score_interval(features(verdict="none", score=5), MODEL) == (3, 7)


@pytest.mark.parametrize(
    ("score", "expected", "interval"),
    [(3, 3.0, (1, 4)), (3, 5.9, (1, 6)), (3, 0.4, (0, 4)), (0, 5.89, (0, 9))],
)
def test_the_interval_holds_the_score_and_the_expected_score(score, expected, interval) -> None:
    """The report's point estimates never contradict its interval: a grade of 0 whose expected
    score is 5.89 does not read [0, 4]."""
    found = score_interval(features(verdict="wrong", score=score, score_expected=expected), MODEL)
    assert found == interval and found[0] <= score <= found[1]
    assert found[0] <= expected <= found[1]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("cells"), "malformed"),
        (lambda d: d["cells"].pop("all"), "pooled cell 'all'"),
        (lambda d: d["cells"].update(bogus=d["cells"]["all"]), "unknown cells"),
        (lambda d: d["cells"]["all"].update(q_lo=3.0, q_hi=1.0), "q_lo"),
        (lambda d: d["cells"]["all"].update(spread0=0.0), "spread0"),
        (lambda d: d["cells"]["all"].update(q_hi=float("nan")), "finite"),
        (lambda d: d.update(coverage=1.5), "coverage"),
        (lambda d: d.update(format=99), "refit"),
        (lambda d: d.update(llm_cells={"right": d["cells"]["right"]}), "LLM-mode statistics"),
        (
            lambda d: d.update(llm_cells={"all": d["cells"]["all"], "bogus": d["cells"]["all"]}),
            "unknown cells",
        ),
    ],
)
def test_bad_statistics_fail_clearly(tmp_path: Path, change, message: str) -> None:
    data = json.loads(json.dumps(MODEL.to_json()))
    change(data)
    path = tmp_path / "u.json"
    path.write_text(json.dumps(_calibration_with(data)), encoding="utf-8")
    with pytest.raises(UncertaintyError, match=message):
        load_uncertainty(path)


def _calibration_with(section: object) -> dict[str, object]:
    """A minimal calibration file holding `section` as its uncertainty statistics."""
    return {
        "version": "1-t",
        "models": {"en": {"weights": {}, "threshold": 0.5}},
        "kinds": {},
        "uncertainty": section,
    }


def test_unreadable_statistics_fail_clearly(tmp_path: Path) -> None:
    path = tmp_path / "u.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(UncertaintyError, match="cannot read"):
        load_uncertainty(path)
    with pytest.raises(UncertaintyError, match="cannot read"):
        load_uncertainty(tmp_path / "missing.json")
    bare = tmp_path / "bare.json"
    bare.write_text(
        json.dumps({k: v for k, v in _calibration_with(None).items() if k != "uncertainty"}),
        encoding="utf-8",
    )
    with pytest.raises(UncertaintyError, match="no 'uncertainty' section"):
        load_uncertainty(bare)


def test_the_statistics_round_trip_and_the_shipped_file_loads() -> None:
    assert UncertaintyModel.from_json(MODEL.to_json()) == MODEL
    shipped = load_uncertainty(DEFAULT_PATH)  # the calibration file's section
    assert "all" in shipped.cells and shipped.coverage == 0.8


def test_a_grade_whose_steps_a_model_judged_reads_the_llm_mode_cells() -> None:
    # LLM-mode right answers: humans may give less than the grade (a model's false alarm, a
    # miss), so the interval reaches below 10; offline right answers keep their own cell.
    llm = {
        "all": Cell(n=100, intercept=0.0, slope=1.0, spread0=1.0, spread1=0.0, q_lo=-3.0, q_hi=1.0)
    }
    model = replace(MODEL, llm_cells=llm)
    judged = features(mode="llm", step_logic_checked=True)
    assert score_interval(judged, model) == (7, 10)  # 'right' borrows the LLM 'all' cell
    assert score_interval(judged, MODEL) == (9, 10)  # no LLM cells: the offline ones
    assert score_interval(features(), model) == (9, 10)
    degraded = features(mode="llm", step_logic_checked=False, degraded=True)
    assert score_interval(degraded, model) == (9, 10)  # fell back to the offline checks
    assert UncertaintyModel.from_json(model.to_json()) == model
