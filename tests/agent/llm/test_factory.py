"""The one chat-model factory, and the settings that decide whether there is an LLM at all."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import respx

from agent.llm.config import LlmConfig
from agent.llm.factory import ceiling_field, make_chat_model
from agent.llm.langchain_adapter import request_payload


@respx.mock
def test_every_call_carries_the_timeout_key_and_model_and_no_sdk_retries():
    route = respx.post("http://h/v1/chat/completions").mock(
        return_value=httpx.Response(500, json={"error": {"message": "boom"}})
    )
    model = make_chat_model(LlmConfig(base_url="http://h/v1", model="m", api_key="sk-1", timeout=3))
    with pytest.raises(Exception, match="boom"):
        asyncio.run(model.ainvoke("hello"))
    assert len(route.calls) == 1  # tenacity is the one retry layer, not the SDK
    request = route.calls[0].request
    assert request.headers["authorization"] == "Bearer sk-1"
    assert request.extensions["timeout"]["read"] == 3
    assert model.max_retries == 0 and model.temperature == 0


@respx.mock
def test_messages_and_format_reach_the_wire_once_and_as_given():
    """They and the format fields travel as `extra_body` (past the SDK's parameter walk):
    the body is the same."""
    route = respx.post("http://h/v1/chat/completions").mock(
        return_value=httpx.Response(
            200,
            json={
                "id": "c",
                "object": "chat.completion",
                "created": 0,
                "model": "m",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": "ok"},
                    }
                ],
            },
        )
    )
    model = make_chat_model(LlmConfig(base_url="http://h/v1", model="m"))
    bound = model.bind(max_tokens=9, response_format={"type": "json_object"})
    answer = asyncio.run(bound.ainvoke([("system", "be brief"), ("human", "2 + 2 = ?")]))
    assert answer.content == "ok"
    sent = json.loads(route.calls[0].request.content)
    assert sent["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "2 + 2 = ?"},
    ]
    assert sent["response_format"] == {"type": "json_object"} and sent["max_tokens"] == 9
    assert "extra_body" not in sent


def test_openai_gets_max_completion_tokens_and_other_servers_max_tokens():
    assert ceiling_field("https://api.openai.com/v1") == "max_completion_tokens"
    assert ceiling_field("http://127.0.0.1:8080/v1") == "max_tokens"
    model = make_chat_model(LlmConfig(base_url="http://127.0.0.1:8080/v1", model="m"))
    assert request_payload(model, "hi", max_tokens=5)["max_tokens"] == 5  # not renamed


def test_connection_pools_share_one_tls_context(monkeypatch):
    """Loading the certificates costs ~20 ms of CPU: once per client, not once per pool."""
    import httpcore2

    from agent.llm.factory import TakeTurns

    loads = []
    real = httpcore2.default_ssl_context
    monkeypatch.setattr(
        httpcore2, "default_ssl_context", lambda *a, **k: loads.append(1) or real(*a, **k)
    )
    transport = TakeTurns(20, pool_size=8)
    assert [p._pool._max_connections for p in transport.pools] == [8, 8, 4]
    assert len(loads) == 1
    assert len({id(p._pool._ssl_context) for p in transport.pools}) == 1
