"""The LLM client's configuration: one frozen, hashable value, with the defaults the settings
document."""

from __future__ import annotations

import dataclasses

import pytest

from agent.llm.config import METHODS, REPLAY_BASE_URL, STREAM_FOR_SERVERS, LlmConfig


def test_defaults_are_reproducible_and_try_every_method_in_order():
    config = LlmConfig(base_url="http://llm.test/v1", model="m")
    assert config.temperature == 0.0 and config.methods == METHODS
    assert METHODS == ("json_schema", "function_calling", "json_mode")
    assert (config.stream, config.replay_only, config.cache_dir) == ("auto", False, None)


def test_a_config_is_frozen_and_hashable():
    config = LlmConfig(base_url="http://llm.test/v1", model="m")
    assert hash(config) == hash(LlmConfig(base_url="http://llm.test/v1", model="m"))
    assert {config: 1}[dataclasses.replace(config)] == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.model = "other"  # type: ignore[misc]


def test_the_replay_url_can_never_be_reached_and_llama_cpp_is_streamed_to():
    assert REPLAY_BASE_URL.startswith("http://") and ".invalid/" in REPLAY_BASE_URL
    assert "llama.cpp" in STREAM_FOR_SERVERS
