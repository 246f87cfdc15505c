"""What building a grader reads from the environment: comma-separated lists, the streaming
choice, and settings refused by name."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from agent.settings import GradingSettings, comma_separated


def test_streaming_is_auto_unless_set(monkeypatch):
    assert GradingSettings(_env_file=None).llm_stream == "auto"
    for text, value in (("true", True), ("false", False), ("auto", "auto")):
        monkeypatch.setenv("STEPGRADE_LLM_STREAM", text)
        assert GradingSettings(_env_file=None).llm_stream == value


def test_bad_llm_settings_are_refused_by_name(tmp_path):
    with pytest.raises(ValidationError, match="llm_stream"):
        GradingSettings(llm_stream="sometimes", _env_file=None)
    with pytest.raises(ValidationError, match="llm_methods"):
        GradingSettings(llm_methods="json_schema,xml", _env_file=None)
    with pytest.raises(ValidationError, match="llm_budget"):
        GradingSettings(llm_budget=0, _env_file=None)
    with pytest.raises(ValidationError, match="different folders"):
        GradingSettings(llm_record=tmp_path / "a", llm_replay=tmp_path / "b", _env_file=None)


def test_comma_separated_values_drop_blanks_and_leave_lists_alone():
    assert comma_separated(" a, b,,c ,") == ["a", "b", "c"]
    assert comma_separated("") == []
    assert comma_separated(["x"]) == ["x"]
    assert comma_separated(None) is None


def test_llm_methods_keep_their_order_and_an_endpoint_needs_a_model(monkeypatch):
    monkeypatch.setenv("STEPGRADE_LLM_METHODS", "json_mode, function_calling")
    assert GradingSettings(_env_file=None).llm_methods == ["json_mode", "function_calling"]
    assert not GradingSettings(llm_base_url="http://h/v1", _env_file=None).llm_configured
    assert GradingSettings(llm_base_url="http://h/v1", llm_model="m", _env_file=None).llm_configured


def test_one_folder_may_be_both_record_and_replay(tmp_path):
    settings = GradingSettings(llm_record=tmp_path, llm_replay=tmp_path / ".", _env_file=None)
    assert settings.llm_record == tmp_path
