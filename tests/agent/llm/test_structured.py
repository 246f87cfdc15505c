"""One structured operation over HTTP (respx): the answer validated, the method negotiated and
remembered, one repair turn, and every failure an `LlmError` with its reason, never a value."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest
import respx

from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from agent.llm.records import LlmError, LlmRun
from agent.llm.schemas import Bounds
from agent.llm.structured import Ask, ask, json_mode_prompt
from tests.agent.conftest import BASE, URL, body_of, operation_of
from tests.agent.llm.test_llm_failures import raw

STEPS = {"steps": ["2x = 8", "x = 4"]}


def client(**config) -> LlmClient:
    config = {"max_retries": 0, "stream": False, "timeout": 5.0, **config}
    return LlmClient(LlmConfig(base_url=BASE, model="m", **config), http_client=httpx.AsyncClient)


def question(check=None) -> Ask:
    bounds = Bounds(items=4, reason_chars=100, text_chars=256)
    return Ask("segmentation", "Split the solution into steps.", "en", 500, bounds, check)


def run_ask(llm: LlmClient, q: Ask | None = None, run: LlmRun | None = None):
    run = run or LlmRun()
    return asyncio.run(ask(llm, run, q or question())), run


@respx.mock
def test_an_answer_is_validated_and_its_request_recorded():
    respx.post(URL).mock(side_effect=lambda r: raw(r, json.dumps(STEPS)))
    value, run = run_ask(client())
    assert value.steps == ["2x = 8", "x = 4"]
    [record] = run.operations
    assert (record.operation, record.method, record.requests, record.repaired) == (
        "segmentation",
        "json_schema",
        1,
        False,
    )
    assert record.prompt_tokens > 0 and record.completion_tokens > 0 and not record.degraded


@respx.mock
def test_a_refused_method_moves_on_and_the_accepted_one_is_remembered():
    methods: list[str] = []

    def respond(request: httpx.Request) -> httpx.Response:
        method = operation_of(body_of(request))[1]
        methods.append(method)
        if method == "json_schema":
            return httpx.Response(400, json={"error": {"message": "response_format unsupported"}})
        return raw(request, json.dumps(STEPS))

    respx.post(URL).mock(side_effect=respond)
    llm = client()
    run_ask(llm)
    run_ask(llm)
    assert methods == ["json_schema", "function_calling", "function_calling"]
    assert llm.accepted == "function_calling" and "json_schema" in llm.unsupported


@respx.mock
def test_an_answer_that_breaks_the_schema_gets_one_repair_turn():
    replies = iter([json.dumps({"steps": "2x = 8"}), json.dumps(STEPS)])
    route = respx.post(URL).mock(side_effect=lambda r: raw(r, next(replies)))
    value, run = run_ask(client())
    assert value.steps == STEPS["steps"] and run.operations[0].repaired
    repair = body_of(route.calls[1].request)["messages"]
    assert len(repair) == 3 and "steps" in repair[-1]["content"]


@respx.mock
def test_an_answer_the_check_refuses_twice_fails_with_content():
    respx.post(URL).mock(side_effect=lambda r: raw(r, json.dumps(STEPS)))
    q = question(check=lambda value: ["expected 3 steps"])
    with pytest.raises(LlmError) as err:
        run_ask(client(), q)
    assert err.value.reason == "content" and "expected 3 steps" in str(err.value)


@respx.mock
def test_an_answer_cut_off_at_max_tokens_is_asked_again_more_briefly():
    replies = iter([('{"steps": ["2x', "length"), (json.dumps(STEPS), "stop")])
    route = respx.post(URL).mock(side_effect=lambda r: raw(r, *next(replies)))
    value, _ = run_ask(client())
    assert value.steps == STEPS["steps"]
    assert "cut off at 500 tokens" in body_of(route.calls[1].request)["messages"][-1]["content"]


@respx.mock
def test_a_refused_request_is_a_transport_failure_with_the_servers_message():
    respx.post(URL).mock(return_value=httpx.Response(401, json={"error": {"message": "bad key"}}))
    with pytest.raises(LlmError) as err:
        run_ask(client())
    assert err.value.reason == "transport" and "HTTP 401: bad key" in str(err.value)


@respx.mock
def test_past_the_deadline_no_request_is_made():
    route = respx.post(URL).mock(side_effect=lambda r: raw(r, json.dumps(STEPS)))
    with pytest.raises(LlmError) as err:
        run_ask(client(), run=LlmRun(deadline=0.0))
    assert err.value.reason == "deadline" and route.call_count == 0


@respx.mock
def test_every_method_refused_is_a_format_failure_naming_each():
    respx.post(URL).mock(
        return_value=httpx.Response(400, json={"error": {"message": "not supported"}})
    )
    with pytest.raises(LlmError) as err:
        run_ask(client())
    assert err.value.reason == "format"
    for method in ("json_schema", "function_calling", "json_mode"):
        assert f"{method} refused" in str(err.value)


def test_json_mode_carries_the_schema_in_the_prompt():
    prompt = json_mode_prompt("Split it.", "segmentation", "en")
    assert prompt.startswith("Split it.\n") and "segmentation" in prompt
    assert '"steps"' in prompt
