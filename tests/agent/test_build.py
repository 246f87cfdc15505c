"""Building a grader from the settings: the LLM endpoint's config, the calibration and the
model's reliability, and a clear error for settings that cannot work."""

from __future__ import annotations

import pytest

from agent.build import ConfigError, judge_config, llm_config, make_grader
from agent.llm.config import REPLAY_BASE_URL, LlmConfig
from agent.settings import GradingSettings
from eval_sets.llm_reliability import Counts, rates_of, update_calibration
from scoring.judge.decide.reliability import Reliability
from scoring.judge.load import DEFAULT_PATH


def test_no_endpoint_means_no_client():
    settings = GradingSettings(_env_file=None)
    assert llm_config(settings) is None
    assert make_grader(settings).context.llm is None


def test_settings_become_one_config(tmp_path):
    settings = GradingSettings(
        llm_base_url="http://h/v1",
        llm_model="m",
        llm_api_key="k",
        llm_timeout=7,
        llm_max_retries=1,
        llm_budget=20,
        llm_methods="function_calling,json_mode",
        llm_reason_tokens=30,
        llm_max_tokens=900,
        llm_stream=False,
        llm_record=tmp_path,
        _env_file=None,
    )
    assert llm_config(settings) == LlmConfig(
        base_url="http://h/v1",
        model="m",
        api_key="k",
        timeout=7,
        max_retries=1,
        budget=20,
        methods=("function_calling", "json_mode"),
        reason_tokens=30,
        max_tokens=900,
        stream=False,
        cache_dir=tmp_path,
    )
    replay = llm_config(GradingSettings(llm_model="m", llm_replay=tmp_path, _env_file=None))
    assert replay is not None and replay.base_url == REPLAY_BASE_URL and replay.replay_only


@pytest.fixture
def measured_file(tmp_path):
    out = tmp_path / "cal.json"
    update_calibration(
        DEFAULT_PATH,
        out,
        "judge-x",
        {"en": rates_of(Counts(wrong=40, caught=36, right=200, alarms=10), "t")},
    )
    return out


def test_the_measured_rates_are_used_for_their_language(monkeypatch, measured_file) -> None:
    config = judge_config(_settings(monkeypatch, CALIBRATION=measured_file, LLM_MODEL="judge-x"))
    en = config.reliability_for("en")
    assert en.source == "measured" and (en.wrong, en.right) == (40, 200)
    assert en.sensitivity == pytest.approx(36.5 / 41) and en.false_alarm == pytest.approx(
        10.5 / 201
    )
    assert config.reliability_for("zh") == Reliability()  # not measured: the assumed default
    other = judge_config(_settings(monkeypatch, CALIBRATION=measured_file, LLM_MODEL="other"))
    assert other.reliability_for("en").source == "assumed"


def test_an_explicit_setting_wins_over_the_measurement(monkeypatch, measured_file) -> None:
    config = judge_config(
        _settings(
            monkeypatch, CALIBRATION=measured_file, LLM_MODEL="judge-x", LLM_FALSE_ALARM="0.3"
        )
    )
    en = config.reliability_for("en")
    assert en.source == "set" and en.false_alarm == 0.3
    assert en.sensitivity == pytest.approx(36.5 / 41)  # the other rate stays measured
    assert config.reliability_for("zh") == Reliability(0.7, 0.3, "set")
    with pytest.raises(ConfigError, match="false_alarm < sensitivity"):
        judge_config(_settings(monkeypatch, LLM_SENSITIVITY="0.2", LLM_FALSE_ALARM="0.3"))


def _settings(monkeypatch, **env) -> GradingSettings:
    for name in ("LLM_SENSITIVITY", "LLM_FALSE_ALARM", "CALIBRATION", "LLM_MODEL"):
        monkeypatch.delenv(f"STEPGRADE_{name}", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(f"STEPGRADE_{name}", str(value))
    return GradingSettings(_env_file=None)


def test_a_replay_folder_with_an_endpoint_is_a_cache_in_front_of_it(tmp_path):
    both = llm_config(
        GradingSettings(
            llm_base_url="http://h/v1",
            llm_model="m",
            llm_record=tmp_path,
            llm_replay=tmp_path,
            _env_file=None,
        )
    )
    assert both is not None and both.base_url == "http://h/v1" and not both.replay_only
    assert both.cache_dir == tmp_path
    no_model = GradingSettings(llm_base_url="http://h/v1", _env_file=None)
    assert llm_config(no_model) is None


def test_a_calibration_file_that_cannot_be_read_stops_start_up_by_name(tmp_path):
    broken = tmp_path / "cal.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match="STEPGRADE_CALIBRATION"):
        judge_config(GradingSettings(calibration=broken, _env_file=None))


def test_impossible_rates_stop_start_up_by_name():
    settings = GradingSettings(llm_sensitivity=0.2, llm_false_alarm=0.5, _env_file=None)
    with pytest.raises(ConfigError, match="STEPGRADE_LLM_"):
        judge_config(settings)


def test_the_grader_is_built_with_the_settings_policy_and_model(tmp_path):
    grader = make_grader(
        GradingSettings(
            llm_base_url="http://h/v1",
            llm_model="judge-x",
            scoring_policy="follow_through",
            answer_timeout=1.5,
            _env_file=None,
        )
    )
    context = grader.context
    assert context.fuse.policy == "follow_through" and context.answer_timeout == 1.5
    assert context.llm is not None and context.llm_model == "judge-x" and grader.llm_configured
