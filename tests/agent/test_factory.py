"""The one chat-model factory, and the settings that decide whether there is an LLM at all."""

from __future__ import annotations

import httpx
import respx

from agent.llm.config import REPLAY_BASE_URL, LlmConfig
from agent.llm.factory import make_chat_model
from server.factory import llm_config, make_grader
from server.settings import Settings


def test_no_endpoint_means_no_client():
    settings = Settings(_env_file=None)
    assert llm_config(settings) is None
    assert make_grader(settings).context.llm is None


def test_settings_become_one_config(tmp_path):
    settings = Settings(llm_base_url="http://h/v1", llm_model="m", llm_api_key="k", llm_timeout=7,
                        llm_max_retries=1, llm_record=tmp_path, _env_file=None)
    config = llm_config(settings)
    assert config == LlmConfig(base_url="http://h/v1", model="m", api_key="k", timeout=7,
                               max_retries=1, record_dir=tmp_path)
    replay = llm_config(Settings(llm_model="m", llm_replay=tmp_path, _env_file=None))
    assert replay is not None and replay.base_url == REPLAY_BASE_URL


@respx.mock
def test_every_call_carries_the_timeout_key_and_model():
    route = respx.post("http://h/v1/chat/completions").mock(return_value=httpx.Response(200, json={
        "id": "x", "object": "chat.completion", "created": 0, "model": "m",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"},
                     "finish_reason": "stop"}]}))
    model = make_chat_model(LlmConfig(base_url="http://h/v1", model="m", api_key="sk-1", timeout=3))
    assert model.invoke("hello").content == "hi"
    request = route.calls[0].request
    assert request.headers["authorization"] == "Bearer sk-1"
    assert request.extensions["timeout"]["read"] == 3
    assert model.max_retries == 2 and model.temperature == 0
