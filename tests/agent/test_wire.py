"""The structured calls send their format fields as `extra_body` (cheaper for the SDK); the
request on the wire must be exactly the one `with_structured_output` asks for."""

from __future__ import annotations

import asyncio

import pytest
from langchain_core.messages import HumanMessage

from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from agent.llm.tokens import limits
from tests.fakes.openai_server import FakeOpenAI


def _bound(base_url: str, method: str, cache_dir=None) -> dict:
    """The request fields of the call for one segmentation, made once."""
    client = LlmClient(LlmConfig(base_url=base_url, model="fake-model", max_retries=0,
                                 cache_dir=cache_dir))
    ceiling, bounds = limits("segmentation", language="en", items=4, reason_tokens=64, cap=4096,
                             verbatim="1 + 1 = 2")

    async def call() -> dict:
        structured = client.structured("segmentation", method, ceiling, bounds)
        await structured.model.ainvoke([HumanMessage("Split: 1 + 1 = 2. Answer with the JSON schema named 'segmentation'.")])
        return dict(structured.model.kwargs)

    return asyncio.run(call())


@pytest.mark.parametrize("method", ["json_schema", "function_calling", "json_mode"])
def test_the_wire_carries_what_with_structured_output_binds(method, tmp_path):
    with FakeOpenAI() as server:
        fast = _bound(server.base_url, method)
        library = _bound(server.base_url, method, cache_dir=tmp_path)  # the library's own form
        fast_body, library_body = server.requests
    assert fast_body == library_body
    # The fast form moved the format fields out of the SDK's typed parameters...
    moved = {"response_format", "tools", "tool_choice"} & set(library)
    assert moved and not moved & set(fast)
    assert fast["extra_body"] == {name: library[name] for name in moved}
    # ...and they reached the server all the same.
    assert all(fast_body[name] == library[name] for name in moved)
