"""GET /calibration: what the service grades with and what that was checked on, as an operator
reads it without opening files on the server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scoring.judge.load import DEFAULT_PATH
from tests.server.conftest import HAND_CALIBRATION, service

PROBLEM = {
    "problem": "Compute 2 + 3.",
    "solution": "2 + 3 = 5. The answer is 5.",
    "reference_answer": "5",
}


def test_the_hand_calibration_has_no_interval_and_reports_grade_with_its_version() -> None:
    with service() as client:
        info = client.get("/calibration")
        grade = client.post("/grade", json=PROBLEM)
    assert info.status_code == 200, info.text
    body = info.json()
    assert (
        body["version"]
        == "hand-written-for-tests"
        == grade.json()["meta"]["versions"]["calibration"]
    )
    assert body["source"] == "file"  # STEPGRADE_CALIBRATION names it
    assert body["interval"] is None and body["llm"] is None and body["corrections"] is None
    assert set(body["languages"]) == set(json.loads(HAND_CALIBRATION.read_text())["models"])


def test_the_shipped_calibration_states_its_interval_and_what_it_covered_out_of_fold() -> None:
    shipped = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    with service(calibration=None) as client:
        body = client.get("/calibration").json()
        interval_of_a_grade = client.post("/grade", json=PROBLEM).json()["score_interval"]
    assert body["source"] == "shipped" and body["version"] == shipped["version"]
    interval = body["interval"]
    section = shipped["uncertainty"]
    assert interval["version"] == section["version"] and interval["coverage"] == 0.8
    assert interval["max_width"] == section["max_width"]
    assert interval["out_of_fold_coverage"] == section["meta"]["out_of_fold_coverage"]
    assert interval["method"].startswith("Mondrian")
    # the LLM-mode cells say which judge, of which reliability, they were fitted against
    assert interval["llm_cells"]["false_alarm"] == section["meta"]["llm"]["false_alarm"]
    assert interval_of_a_grade is not None


def _calibration_with(tmp_path: Path, **extra: object) -> Path:
    data = json.loads(HAND_CALIBRATION.read_text(encoding="utf-8"))
    meta = extra.pop("meta", None)
    if isinstance(meta, dict):
        data["meta"] = {**data["meta"], **meta}
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({**data, **extra}), encoding="utf-8")
    return path


RATES = {
    "wrong": 40,
    "caught": 30,
    "right": 200,
    "alarms": 10,
    "sensitivity": 0.747,
    "false_alarm": 0.052,
    "sensitivity_interval": [0.6, 0.86],
    "false_alarm_interval": [0.03, 0.09],
    "source": "stepmath_steps fit half, 36 items",
}


def test_a_configured_model_shows_whether_its_reliability_was_measured(tmp_path: Path) -> None:
    path = _calibration_with(tmp_path, llm_reliability={"tutor-model": {"zh": RATES}})
    # configured, never called: GET /calibration makes no request to the model
    with service(
        calibration=path, llm_base_url="http://127.0.0.1:9/v1", llm_model="tutor-model"
    ) as client:
        llm = client.get("/calibration").json()["llm"]
    assert llm["model"] == "tutor-model"
    assert llm["reliability"]["source"] == "assumed"  # any language but zh
    zh = llm["by_language"]["zh"]
    assert (zh["source"], zh["sensitivity"], zh["false_alarm"]) == ("measured", 0.747, 0.052)
    assert (zh["wrong"], zh["right"]) == (40, 200)
    assert zh["sensitivity_interval"] == [0.6, 0.86]
    assert zh["measured_on"] == "stepmath_steps fit half, 36 items"


def test_a_rate_set_by_hand_is_not_reported_as_measured(tmp_path: Path) -> None:
    path = _calibration_with(tmp_path, llm_reliability={"tutor-model": {"zh": RATES}})
    with service(
        calibration=path,
        llm_base_url="http://127.0.0.1:9/v1",
        llm_model="tutor-model",
        llm_sensitivity=0.9,
    ) as client:
        zh = client.get("/calibration").json()["llm"]["by_language"]["zh"]
    assert (zh["source"], zh["sensitivity"], zh["false_alarm"]) == ("set", 0.9, 0.052)
    assert zh["sensitivity_interval"] is None and zh["measured_on"] is None


def test_a_refit_from_corrections_carries_what_it_was_checked_on(tmp_path: Path) -> None:
    corrections = {
        "from": "1-abc",
        "grades": 120,
        "weight": 4.0,
        "measured": {
            "on": "the held-back fifth, by problem",
            "grades": 24,
            "mae_before": 1.9,
            "mae_after": 1.4,
        },
    }
    path = _calibration_with(tmp_path, meta={"corrections": corrections})
    with service(calibration=path) as client:
        body = client.get("/calibration").json()
    assert body["corrections"] == corrections


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_it_only_reads(method: str) -> None:
    with service() as client:
        response = client.request(method.upper(), "/calibration")
    assert response.status_code == 405 and "error" in response.json()


def test_the_documented_example_is_a_valid_answer() -> None:
    from server.api.routes.calibration import EXAMPLE
    from server.services.calibration_info import CalibrationInfo

    assert CalibrationInfo.model_validate(EXAMPLE).llm is not None
