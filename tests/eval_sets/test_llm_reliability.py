"""`stepgrade bench calibrate-llm` over HTTP against the fallible label fake: the measured rates
are the fake's own answers counted, near the rates it was set to; the file keeps the rest."""

from __future__ import annotations

import json
import math
import os

import pytest

from eval_sets.fakes.label_oracle import ErrorRates, LabelOracle, answered_labels
from eval_sets.fakes.openai_server import FakeOpenAI
from eval_sets.llm_reliability import Counts, jeffreys, rates_of, update_calibration, wilson
from scoring.judge.calibration import Calibration, CalibrationError
from scoring.judge.load import DEFAULT_PATH, load_calibration
from server.cli import main

# 24 hand-made items of 10 steps, each its own problem: 120 wrong steps, 120 right ones.
ROWS = [
    {
        "uid": f"r{k}",
        "question": f"Add {k} and {k + 1}.",
        "type": "Calculation",
        "gold_score": 5,
        "level": 1,
        "answers": [str(2 * k + 1)],
        "model_output": "\n".join(f"Step {i} of r{k}: {i} + {k} = {i + k}." for i in range(1, 11)),
        "gold_step": [f"({i}) Step {i} of r{k}: {i} + {k} = {i + k}." for i in range(1, 11)],
        "gold_step_score": ["0", "1"] * 5,
    }
    for k in range(24)
]
RATES = ErrorRates(miss=0.3, false_alarm=0.1, seed=2)


def test_jeffreys_keeps_degenerate_counts_inside_zero_one() -> None:
    assert jeffreys(0, 0) == 0.5
    assert 0 < jeffreys(0, 10) < 0.05 and 0.95 < jeffreys(10, 10) < 1
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0.1 < hi < 0.2  # the rule of three's neighbourhood, 3/20 = 0.15
    lo, hi = wilson(7, 10)
    assert lo < 0.7 < hi
    assert wilson(3, 10) == pytest.approx(tuple(1 - x for x in reversed(wilson(7, 10))))


def test_no_wrong_steps_still_gives_a_usable_reliability() -> None:
    from scoring.judge.decide.reliability import measured

    rates = rates_of(Counts(wrong=0, caught=0, right=50, alarms=0), "t")
    assert rates.sensitivity == 0.5 and rates.false_alarm == pytest.approx(0.5 / 51)
    assert measured(rates).source == "measured"
    # a model no better than chance: almost no evidence, not a start-up error
    useless = measured(rates_of(Counts(wrong=10, caught=1, right=10, alarms=9), "t"))
    assert abs(useless.log_likelihood_ratio(True)) < 0.05


def test_calibrate_llm_measures_the_fakes_rates(tmp_path, monkeypatch, capsys) -> None:
    data = tmp_path / "rows.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    said = [answered_labels(r, RATES) for r in ROWS]
    caught = sum(s == "incorrect" for labels in said for s in labels[0::2])
    alarms = sum(s == "incorrect" for labels in said for s in labels[1::2])
    out = tmp_path / "cal.json"
    with FakeOpenAI(LabelOracle(ROWS, RATES)) as server:
        argv = [
            "bench",
            "calibrate-llm",
            "--dataset",
            "stepmath",
            "--path",
            str(data),
            "--half",
            "all",
            "--base-url",
            server.base_url,
            "--model",
            "judge-x",
            "--out",
            str(out),
            "--no-progress",
        ]
        monkeypatch.delenv("STEPGRADE_LLM_SENSITIVITY", raising=False)
        monkeypatch.delenv("STEPGRADE_LLM_BASE_URL", raising=False)
        monkeypatch.setenv("STEPGRADE_LLM_MODEL", "the-callers-own")
        assert main(argv) == 0, capsys.readouterr().err
    assert "judge-x" in capsys.readouterr().out
    # the endpoint was the run's alone: the caller's environment is as it was
    assert "STEPGRADE_LLM_BASE_URL" not in os.environ
    assert os.environ["STEPGRADE_LLM_MODEL"] == "the-callers-own"
    cal = load_calibration(out)
    ((lang, rates),) = cal.llm_rates["judge-x"].items()
    assert (rates.wrong, rates.right) == (120, 120)
    assert (rates.caught, rates.alarms) == (caught, alarms)  # the fake's answers, counted
    assert rates.sensitivity == pytest.approx(jeffreys(caught, 120), abs=1e-4)
    bound = 5 * math.sqrt(0.3 * 0.7 / 120)
    assert abs(rates.sensitivity - 0.7) < bound and abs(rates.false_alarm - 0.1) < bound
    lo, hi = rates.sensitivity_interval
    assert lo < caught / 120 < hi
    # the rest of the starting calibration is untouched
    shipped = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    written = json.loads(out.read_text(encoding="utf-8"))
    assert {k: v for k, v in written.items() if k != "llm_reliability"} == {
        k: v for k, v in shipped.items() if k != "llm_reliability"
    }
    assert lang in ("en", "zh")


def test_update_keeps_other_models_and_languages(tmp_path) -> None:
    out = tmp_path / "c.json"
    a = rates_of(Counts(10, 7, 30, 3), "set a")
    update_calibration(DEFAULT_PATH, out, "m1", {"en": a})
    update_calibration(out, out, "m2", {"en": a})
    update_calibration(out, out, "m1", {"zh": rates_of(Counts(5, 4, 5, 1), "set b")})
    cal = Calibration.from_json(json.loads(out.read_text(encoding="utf-8")))
    assert set(cal.llm_rates) == {"m1", "m2"} and set(cal.llm_rates["m1"]) == {"en", "zh"}
    assert cal.llm_rates["m1"]["en"] == a


def test_the_shipped_file_is_never_overwritten_by_default(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("STEPGRADE_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("STEPGRADE_LLM_MODEL", "m")
    argv = [
        "bench",
        "calibrate-llm",
        "--dataset",
        "stepmath",
        "--path",
        str(tmp_path / "x"),
        "--out",
        str(DEFAULT_PATH),
    ]
    before = DEFAULT_PATH.read_bytes()
    assert main(argv) == 2
    assert "--in-place" in capsys.readouterr().err
    assert DEFAULT_PATH.read_bytes() == before


def test_a_malformed_section_is_a_calibration_error() -> None:
    data = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    data["llm_reliability"] = {
        "m": {
            "en": {
                "wrong": 3,
                "caught": 5,
                "right": 1,
                "alarms": 0,
                "sensitivity": 0.9,
                "false_alarm": 0.2,
            }
        }
    }
    with pytest.raises(CalibrationError, match="inconsistent"):
        Calibration.from_json(data)
