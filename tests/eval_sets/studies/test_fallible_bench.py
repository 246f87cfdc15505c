"""make bench-fallible's report: mean ± sd over seeds of hand-written score_sources rows."""

from __future__ import annotations

import pytest

from eval_sets.studies.fallible_bench import Spread, grading_env, summarise_runs, to_markdown


def _table(fused: float, expected: float, alone: float | None) -> dict:
    rows = {
        "score": {"Corr": fused, "MSE": 5.0, "OR": 0.5},
        "score_expected": {"Corr": expected, "MSE": 4.0, "OR": 0.4},
    }
    if alone is not None:
        rows["model labels alone"] = {"Corr": alone, "MSE": 9.0, "OR": 0.3}
    return rows


def test_readings_and_the_gain_are_averaged_over_the_seeds() -> None:
    runs = {
        (0, "fit"): _table(0.70, 0.72, 0.60),
        (1, "fit"): _table(0.74, 0.76, 0.66),
        (0, "check"): _table(0.65, 0.66, 0.70),
    }
    summary = summarise_runs(runs, ["fit", "check"])
    fit = summary["fit"]
    assert fit["score"]["Corr"].mean == pytest.approx(0.72)
    assert fit["score"]["Corr"].sd == pytest.approx(0.0282843, abs=1e-6)  # sample sd of .70, .74
    # gains 0.10 and 0.08
    assert fit["fused - model alone"]["Corr"].mean == pytest.approx(0.09)
    check = summary["check"]
    assert check["fused - model alone"]["Corr"].mean == pytest.approx(-0.05)
    assert check["score"]["MSE"] == Spread(5.0, None, 1)  # one seed: no spread
    md = to_markdown(summary, "t")
    assert "| fit | score | 0.720 ± 0.028 | 5.000 ± 0.000 | 0.500 ± 0.000 | 2 |" in md
    assert "| check | fused - model alone | -0.050 |  |  | 1 |" in md


def test_without_model_labels_there_is_no_gain() -> None:
    summary = summarise_runs({(0, "fit"): _table(0.7, 0.7, None)}, ["fit"])
    assert "model labels alone" not in summary["fit"]
    assert summary["fit"]["fused - model alone"]["Corr"] == Spread(None, None, 0)


def test_the_decision_layer_is_told_the_fake_rates_unless_set(monkeypatch) -> None:
    monkeypatch.delenv("STEPGRADE_LLM_SENSITIVITY", raising=False)
    monkeypatch.setenv("STEPGRADE_LLM_FALSE_ALARM", "0.2")
    monkeypatch.setenv("STEPGRADE_LLM_REPLAY", "/somewhere")
    env = grading_env("http://127.0.0.1:1/v1", miss=0.3, false_alarm=0.1)
    assert env["STEPGRADE_LLM_SENSITIVITY"] == "0.7" and env["STEPGRADE_LLM_FALSE_ALARM"] == "0.2"
    assert env["STEPGRADE_LLM_BASE_URL"] == "http://127.0.0.1:1/v1"
    assert "STEPGRADE_LLM_REPLAY" not in env
    monkeypatch.delenv("STEPGRADE_LLM_FALSE_ALARM")
    exact = grading_env(
        "http://x/v1", miss=0.0, false_alarm=0.0
    )  # Reliability needs 0 < fa < sens < 1
    assert (exact["STEPGRADE_LLM_SENSITIVITY"], exact["STEPGRADE_LLM_FALSE_ALARM"]) == (
        "0.999",
        "0.001",
    )
