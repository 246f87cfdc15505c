"""The calibration file: the shipped one loads and is complete; bad files are refused clearly."""

import json

import pytest

from scoring.judge.calibration import Calibration, CalibrationError, StepModel
from scoring.judge.findings import MEMORY_KINDS, WEIGHED_KINDS
from scoring.judge.load import DEFAULT_PATH, load_calibration


def test_the_shipped_calibration_loads_and_holds_statistics_only():
    cal = load_calibration()
    assert cal.version and "en" in cal.models
    assert set(cal.kinds) | set(cal.memory_kinds) == set(
        WEIGHED_KINDS
    )  # the kinds a step model weighs
    assert set(cal.memory_kinds) == MEMORY_KINDS  # measured in their own section
    assert all(0 < m.threshold < 1 for m in cal.models.values())
    raw = DEFAULT_PATH.read_text(encoding="utf-8")
    assert len(raw) < 50_000 and "problem" not in json.loads(raw)  # no rows


def test_round_trip():
    cal = load_calibration()
    assert Calibration.from_json(json.loads(json.dumps(cal.to_json()))) == cal


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"models": {}, "kinds": {}}, "needs a model"),
        ({"models": {"en": {"weights": {}, "threshold": 1.5}}, "kinds": {}}, "threshold"),
        ({"models": {"en": {"weights": {"bias": "x"}, "threshold": 0.5}}}, "malformed"),
        ({}, "malformed"),
    ],
)
def test_malformed_calibration_is_refused(data, message):
    with pytest.raises(CalibrationError, match=message):
        Calibration.from_json(data)


def test_log_odds_sums_named_weights():
    model = StepModel({"bias": -2.0, "last": 1.0}, 0.5)
    assert model.log_odds({"bias": 1.0, "last": 1.0, "unknown": 5.0}) == -1.0


def test_continuous_features_are_read_within_the_fitted_range():
    model = StepModel({"bias": -2.0, "log_steps": -1.0}, 0.5, {"log_steps": (0.0, 3.0)})
    assert model.log_odds({"bias": 1.0, "log_steps": 2.0}) == -4.0  # inside: as is
    assert model.log_odds({"bias": 1.0, "log_steps": 7.6}) == -5.0  # 2,000 steps: read as 3.0
    assert model.log_odds({"bias": 1.0, "log_steps": -1.0}) == -2.0


def test_ranges_round_trip_and_bad_ranges_are_refused():
    data = {
        "models": {
            "en": {"weights": {"bias": 0.0}, "threshold": 0.5, "ranges": {"log_chars": [1.0, 6.0]}}
        },
        "kinds": {},
    }
    assert Calibration.from_json(data).model("en").ranges == {"log_chars": (1.0, 6.0)}
    data["models"]["en"]["ranges"] = {"log_chars": [6.0, 1.0]}
    with pytest.raises(CalibrationError, match="ranges"):
        Calibration.from_json(data)


def test_the_decision_rule_round_trips_and_a_bad_one_is_refused():
    data = {"models": {"en": {"weights": {"bias": 0.0}, "threshold": 0.5}}, "kinds": {}}
    old = Calibration.from_json(data).model("en")  # a file written before the rule existed
    assert (old.decision, old.lenience) == ("threshold", 0.0)
    data["models"]["en"].update(decision="expected", lenience=0.4)
    model = Calibration.from_json(data).model("en")
    assert (model.decision, model.lenience) == ("expected", 0.4)
    assert (
        Calibration.from_json(json.loads(json.dumps(Calibration.from_json(data).to_json()))).model(
            "en"
        )
        == model
    )
    data["models"]["en"]["decision"] = "vote"
    with pytest.raises(CalibrationError, match="decision"):
        Calibration.from_json(data)
    data["models"]["en"].update(decision="expected", lenience=-1.0)
    with pytest.raises(CalibrationError, match="lenience"):
        Calibration.from_json(data)


def test_recalibration_maps_the_reported_log_odds_by_problem_type():
    from scoring.judge.calibration import ANY_TYPE, Platt

    model = StepModel(
        {"bias": -2.0}, 0.5, recalibration={"proof": Platt(0.5, 1.0), ANY_TYPE: Platt(1.0, -1.0)}
    )
    assert model.recalibrated(-2.0, "proof") == 0.0
    assert model.recalibrated(-2.0, "calculation") == -3.0  # the language's map
    assert StepModel({}, 0.5).recalibrated(-2.0, "proof") == -2.0  # none: as is
    with pytest.raises(CalibrationError, match="slope > 0"):
        Platt(0.0, 1.0)


def test_recalibration_and_unknown_sections_survive_the_file():
    from scoring.judge.calibration import Platt

    model = StepModel({"bias": -2.0}, 0.5, recalibration={"any": Platt(0.8, -0.1, 300)})
    cal = Calibration("1-x", {"en": model}, {}, {}, {"future_section": {"en": [0.7, 0.1]}})
    back = Calibration.from_json(json.loads(json.dumps(cal.to_json())))
    assert back.models["en"].recalibration == {"any": Platt(0.8, -0.1, 300)}
    assert back.section("future_section") == {"en": [0.7, 0.1]}
    assert back.section("absent") is None


def test_a_step_reads_the_most_specific_map_there_is():
    """Group and state, then group, then state, then the problem type, then the language's."""
    from scoring.judge.calibration import ANY_TYPE, Platt, recalibration_keys

    assert recalibration_keys("proof", "fails", "proof") == [
        "group:proof|state:fails",
        "group:proof",
        "state:fails",
        "proof",
        ANY_TYPE,
    ]
    maps = {
        "group:answer_wrong|state:unchecked": Platt(1.0, 3.0),
        "group:answer_wrong": Platt(1.0, 2.0),
        "state:unchecked": Platt(1.0, 1.0),
        ANY_TYPE: Platt(1.0, 0.0),
    }
    model = StepModel({}, 0.5, recalibration=maps)
    assert model.recalibrated(0.0, "calculation", "unchecked", "answer_wrong") == 3.0
    assert model.recalibrated(0.0, "calculation", "holds", "answer_wrong") == 2.0
    assert model.recalibrated(0.0, "calculation", "unchecked", "answer_right") == 1.0
    assert model.recalibrated(0.0, "calculation", "holds", "answer_right") == 0.0
    assert model.recalibrated(0.0, "calculation") == 0.0


def test_the_difficulty_weights_round_trip_and_must_be_finite():
    model = StepModel({"bias": -1.0}, 0.5, difficulty={"bias": 1.0, "log_steps": 0.5})
    calibration = Calibration("d", {"en": model}, {})
    assert Calibration.from_json(calibration.to_json()).models["en"].difficulty == model.difficulty
    with pytest.raises(CalibrationError, match="finite"):
        StepModel({}, 0.5, difficulty={"bias": float("nan")})
