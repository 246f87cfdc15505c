"""The structured calls send their messages and format fields as `extra_body` (cheaper for the
SDK); the request on the wire must be exactly the one `with_structured_output` asks for."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import HumanMessage
from langchain_openai.chat_models.base import BaseChatOpenAI

from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from agent.llm.langchain_adapter import request_payload
from agent.llm.tokens import limits
from eval_sets.fakes.openai_server import FakeOpenAI

PROMPT = [HumanMessage("Split: 1 + 1 = 2. Answer with the JSON schema named 'segmentation'.")]


@pytest.mark.parametrize("method", ["json_schema", "function_calling", "json_mode"])
def test_the_wire_carries_what_with_structured_output_binds(method):
    with FakeOpenAI() as server:
        config = LlmConfig(base_url=server.base_url, model="fake-model", max_retries=0)
        ceiling, bounds = limits(
            "segmentation", language="en", items=4, reason_tokens=64, cap=4096, verbatim="1 + 1 = 2"
        )

        async def both() -> tuple[dict, dict]:
            call = LlmClient(config).structured("segmentation", method, ceiling, bounds)
            bound = dict(call.model.kwargs)  # type: ignore[attr-defined]
            # The library's own form: the same bound fields on LangChain's plain chat model.
            library = BaseChatOpenAI(
                model=config.model,
                base_url=config.base_url,
                api_key=config.api_key,
                temperature=config.temperature,
                max_retries=0,
                use_responses_api=False,
            ).bind(**bound)
            await call.model.ainvoke(PROMPT)
            await library.ainvoke(PROMPT)
            payload = request_payload(call.model.bound, PROMPT, **bound)  # type: ignore[attr-defined]
            return bound, payload

        bound, payload = asyncio.run(both())
        fast_body, library_body = server.requests
    assert fast_body == library_body
    # The fast form moved the messages and format fields out of the SDK's typed parameters...
    moved = {"response_format", "tools", "tool_choice"} & set(bound)
    assert moved and not moved & set(payload) and payload["messages"] == []
    assert set(payload["extra_body"]) == moved | {"messages"}
    # ...and they reached the server all the same.
    assert all(fast_body[name] == bound[name] for name in moved)


def test_recorded_calls_bind_the_same_fields(tmp_path):
    """With an answer cache the call binds exactly what it binds without one: the cache's keys
    name the bound fields, so answers recorded either way replay."""
    with FakeOpenAI() as server:
        ceiling, bounds = limits(
            "segmentation", language="en", items=4, reason_tokens=64, cap=4096, verbatim="1 + 1 = 2"
        )

        async def kwargs(cache) -> dict:
            client = LlmClient(
                LlmConfig(base_url=server.base_url, model="fake-model", cache_dir=cache)
            )
            call = client.structured("segmentation", "json_schema", ceiling, bounds)
            return dict(call.model.kwargs)  # type: ignore[attr-defined]

        plain, recorded = (asyncio.run(kwargs(cache)) for cache in (None, tmp_path))
    assert plain == recorded and "response_format" in plain
