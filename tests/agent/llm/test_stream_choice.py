"""Whether answers are streamed: by default ("auto") only to servers that run a non-streamed
request on after its client has gone (llama.cpp's), told apart by their `Server` header."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import respx

from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from eval_sets.fakes.openai_server import FakeOpenAI
from example_requests import load_example
from scoring.schema import GradeRequest
from tests.agent.conftest import llm_grader

BASE = "http://llm.test/v1"


@pytest.fixture
def request_llm() -> GradeRequest:
    return load_example("arithmetic_slip").model_copy(update={"mode": "llm"})


@pytest.mark.parametrize(("server", "streamed"), [("llama.cpp", True), (None, False)])
def test_auto_streams_to_llama_cpp_only(request_llm, server, streamed):
    with FakeOpenAI(server=server) as fake:
        grader = llm_grader(fake.base_url)  # stream="auto", the default
        first, second = grader.grade(request_llm), grader.grade(request_llm)
        bodies, asked = fake.requests, fake.models_asked
    assert asked == 1  # identified once, before the first request
    assert len(bodies) == first.meta.llm_calls + second.meta.llm_calls >= 6
    assert {body.get("stream", False) for body in bodies} == {streamed}
    assert not first.meta.degraded and not second.meta.degraded


@pytest.mark.parametrize("stream", [True, False])
def test_a_fixed_choice_asks_nothing_first(request_llm, stream):
    with FakeOpenAI(server="llama.cpp") as fake:
        grader = llm_grader(fake.base_url, stream=stream)
        grader.grade(request_llm)
        bodies, asked = fake.requests, fake.models_asked
    assert asked == 0
    assert {body.get("stream", False) for body in bodies} == {stream}


@respx.mock
def test_an_endpoint_not_up_yet_is_asked_again():
    """A service may start before its model server: a failed identification is retried, and
    any HTTP answer (a 404 too) identifies."""
    route = respx.get(f"{BASE}/models").mock(
        side_effect=[
            httpx.ConnectError("connection refused"),
            httpx.Response(404, headers={"server": "llama.cpp"}),
        ]
    )
    client = LlmClient(LlmConfig(base_url=BASE, model="m"), http_client=httpx.AsyncClient)

    async def identify_twice() -> list[tuple[bool, bool]]:
        seen = []
        for _ in range(2):
            await client.identify()
            seen.append((client.unidentified(), client.streams))
        return seen

    assert asyncio.run(identify_twice()) == [(True, False), (False, True)]
    assert route.call_count == 2


@respx.mock
def test_an_endpoint_silent_on_models_is_asked_once():
    route = respx.get(f"{BASE}/models").mock(side_effect=httpx.ReadTimeout("no answer"))
    client = LlmClient(LlmConfig(base_url=BASE, model="m"), http_client=httpx.AsyncClient)
    asyncio.run(client.identify())
    assert not client.unidentified() and not client.streams
    assert route.call_count == 1


def test_recorded_answers_are_never_streamed(tmp_path):
    client = LlmClient(LlmConfig(base_url=BASE, model="m", cache_dir=tmp_path))
    client.identity = "llama.cpp"
    assert not client.unidentified() and not client.streams
