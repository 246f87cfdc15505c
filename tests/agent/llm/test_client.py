"""The LLM client of one endpoint: whether answers are streamed (by default ("auto") only to
servers that run a non-streamed request on after its client has gone, llama.cpp's, told apart by
their `Server` header), the schema per method, the negotiated method, and the last answer."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import respx

from agent.llm.client import LlmClient, schema_for
from agent.llm.config import LlmConfig
from agent.llm.schemas import Bounds
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


def test_the_schema_takes_the_form_of_its_method():
    tool = schema_for("segmentation", "function_calling", None)
    assert tool["name"] == "segmentation" and tool["parameters"]["type"] == "object"
    strict = schema_for("segmentation", "json_schema", None)
    assert strict["strict"] is True and "maxItems" not in strict["schema"]["properties"]["steps"]
    bounded = schema_for("segmentation", "json_schema", Bounds(3, 50, 256))
    assert bounded["schema"]["properties"]["steps"]["maxItems"] == 3


def test_the_accepted_method_is_tried_first_and_refused_ones_left_out():
    client = LlmClient(LlmConfig(base_url=BASE, model="m"))
    assert client.methods() == ["json_schema", "function_calling", "json_mode"]
    client.settle("json_mode", ["json_schema", "function_calling"])
    assert client.methods() == ["json_mode"]
    fresh = LlmClient(LlmConfig(base_url=BASE, model="m"))
    fresh.settle("function_calling", [])
    assert fresh.methods() == ["function_calling", "json_schema", "json_mode"]


def test_the_last_answer_is_remembered_for_readiness():
    client = LlmClient(LlmConfig(base_url=BASE, model="m"))
    assert not client.answered_within(60)
    client.answered()
    assert client.answered_within(60) and not client.answered_within(-1)


def test_a_call_is_built_once_per_operation_method_ceiling_and_bounds():
    client = LlmClient(LlmConfig(base_url=BASE, model="m"), http_client=httpx.AsyncClient)

    async def build() -> tuple[bool, bool]:
        bounds = Bounds(3, 50, 256)
        first = client.structured("segmentation", "json_schema", 512, bounds)
        again = client.structured("segmentation", "json_schema", 512, bounds)
        other = client.structured("segmentation", "json_schema", 1024, bounds)
        return first is again, first is other

    assert asyncio.run(build()) == (True, False)


@respx.mock
def test_every_request_holds_a_shared_slot_while_it_runs():
    from contextlib import asynccontextmanager

    from tests.agent.llm.test_llm_failures import raw

    held: list[str] = []

    class Slots:
        @asynccontextmanager
        async def ahold(self):
            held.append("in")
            yield
            held.append("out")

    respx.post(f"{BASE}/chat/completions").mock(
        side_effect=lambda r: raw(r, '{"steps": ["x = 1"]}')
    )
    client = LlmClient(
        LlmConfig(base_url=BASE, model="m", stream=False),
        http_client=httpx.AsyncClient,
        slots=Slots(),
    )

    async def one() -> None:
        from langchain_core.messages import HumanMessage

        call = client.structured("segmentation", "json_schema", 512, Bounds(3, 50, 256))
        await client.answer(call, [HumanMessage("split")])

    asyncio.run(one())
    assert held == ["in", "out"]
