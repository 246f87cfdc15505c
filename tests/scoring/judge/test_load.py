"""Reading the calibration file: the shipped one by default, any other path in its format,
read once per process; an unreadable file is a clear error."""

import json

import pytest

from scoring.judge.calibration import Calibration, CalibrationError, StepModel
from scoring.judge.load import DEFAULT_PATH, load_calibration


def test_the_default_is_the_shipped_file_read_once():
    assert DEFAULT_PATH.name == "calibration.json" and DEFAULT_PATH.is_file()
    assert load_calibration() is load_calibration()
    assert load_calibration(DEFAULT_PATH) == load_calibration()


def test_another_path_holds_a_calibration_in_the_same_format(tmp_path):
    cal = Calibration("hand", {"en": StepModel({"bias": -2.0}, 0.4)})
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(cal.to_json()), encoding="utf-8")
    loaded = load_calibration(path)
    assert loaded == cal and loaded.model("fr").weights == {"bias": -2.0}


def test_a_readable_file_with_a_bad_calibration_is_refused(tmp_path):
    path = tmp_path / "cal.json"
    path.write_text(json.dumps({"models": {}, "kinds": {}}), encoding="utf-8")
    with pytest.raises(CalibrationError, match="needs a model"):
        load_calibration(path)


def test_unreadable_file(tmp_path):
    with pytest.raises(CalibrationError, match="cannot read"):
        load_calibration(tmp_path / "absent.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CalibrationError, match="cannot read"):
        load_calibration(bad)


def test_the_shipped_file_is_read_once_however_it_is_named(monkeypatch):
    relative = DEFAULT_PATH.relative_to(DEFAULT_PATH.parents[2])
    monkeypatch.chdir(DEFAULT_PATH.parents[2])
    assert load_calibration() is load_calibration(DEFAULT_PATH) is load_calibration(relative)
