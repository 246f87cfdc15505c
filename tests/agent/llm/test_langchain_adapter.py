"""Pins the LangChain behaviour `agent/llm/langchain_adapter.py` relies on beyond the public API.

Each test fails with a message naming what changed in the library, so that a LangChain upgrade
breaks here, loudly, rather than in the grader, silently. Requests go over HTTP to respx.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, AbstractContextManager, nullcontext
from typing import Any

import httpx
import pytest
import respx
from langchain_core.caches import RETURN_VAL_TYPE, BaseCache
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.output_parsers import BaseOutputParser
from langchain_core.runnables import RunnableBinding, RunnableSequence
from langchain_openai.chat_models.base import BaseChatOpenAI

from agent.llm.client import LlmClient, schema_for
from agent.llm.config import LlmConfig
from agent.llm.factory import make_chat_model
from agent.llm.langchain_adapter import (
    WIRE_FIELDS,
    WireChatOpenAI,
    answers_json_schema_by_tools,
    llm_type,
    replay_key,
    request_payload,
    split_structured,
)
from agent.llm.tokens import limits
from eval_sets.fakes.openai_server import FakeOpenAI
from eval_sets.runner.llm_gate import gated
from example_requests import load_example
from tests.agent.conftest import ANSWERS, llm_grader, operation_of

BASE = "http://pin.test/v1"
OPENAI = "https://api.openai.com/v1"
PROMPT = [HumanMessage("2 + 2 = ?")]
REPLY = {
    "id": "c",
    "object": "chat.completion",
    "created": 0,
    "model": "m",
    "choices": [
        {
            "index": 0,
            "finish_reason": "stop",
            "message": {"role": "assistant", "content": '{"answer": "4"}'},
        }
    ],
    "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5},
}


def parameters(function: Any) -> list[tuple[str, Any, Any]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_get_request_payload_keeps_the_signature_overridden():
    expected = [
        ("self", inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.empty),
        ("input_", inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.empty),
        ("stop", inspect.Parameter.KEYWORD_ONLY, None),
        ("kwargs", inspect.Parameter.VAR_KEYWORD, inspect.Parameter.empty),
    ]
    found = parameters(BaseChatOpenAI._get_request_payload)
    assert found == expected, (
        f"langchain-openai changed BaseChatOpenAI._get_request_payload's signature to {found}; "
        "WireChatOpenAI overrides it"
    )


@pytest.mark.parametrize("method", ["json_schema", "function_calling", "json_mode"])
def test_the_payload_carries_the_wire_fields_at_its_top_level(method):
    """The library's payload names the messages and the format fields where WireChatOpenAI
    looks for them; moved, they reach the server as they were."""
    model = make_chat_model(LlmConfig(base_url=BASE, model="m"))
    structured = model.with_structured_output(
        schema_for("segmentation", method, None), method=method, max_tokens=50
    )
    bound, _ = split_structured(structured)
    assert isinstance(bound, RunnableBinding)
    plain = BaseChatOpenAI(
        model="m",
        base_url=BASE,
        api_key="k",  # type: ignore[arg-type]
        max_retries=0,
        use_responses_api=False,
    )
    library = plain._get_request_payload(PROMPT, **bound.kwargs)
    fields = {"messages"} | ({"response_format", "tools", "tool_choice"} & set(bound.kwargs))
    assert fields <= set(library) and "extra_body" not in library, (
        f"langchain-openai's request payload for {method} no longer carries {sorted(fields)} "
        f"at its top level (keys: {sorted(library)}); WireChatOpenAI moves those"
    )
    assert set(WIRE_FIELDS) >= fields

    wire = request_payload(model, PROMPT, **bound.kwargs)
    assert wire["messages"] == [] and set(wire["extra_body"]) == fields
    with respx.mock(assert_all_called=True) as mock:
        route = mock.post(f"{BASE}/chat/completions").mock(
            return_value=httpx.Response(200, json=REPLY)
        )
        asyncio.run(bound.ainvoke(PROMPT))
    sent = json.loads(route.calls[0].request.content)
    assert {name: sent[name] for name in fields} == {name: library[name] for name in fields}, (
        "the OpenAI SDK no longer writes extra_body over the body it builds"
    )


@pytest.mark.parametrize("method", ["json_schema", "function_calling", "json_mode"])
def test_with_structured_output_is_the_bound_model_then_its_parser(method):
    model = make_chat_model(LlmConfig(base_url=BASE, model="m"))
    structured = model.with_structured_output(
        schema_for("segmentation", method, None), method=method, max_tokens=50
    )
    assert isinstance(structured, RunnableSequence), (
        f"with_structured_output(method={method!r}) returns {type(structured).__name__}, "
        "not the RunnableSequence split_structured takes apart"
    )
    assert isinstance(structured.first, RunnableBinding) and structured.first.bound is model, (
        f"with_structured_output's first step is {structured.first!r}, not the model bound"
    )
    assert isinstance(structured.last, BaseOutputParser), (
        f"with_structured_output's last step is {type(structured.last).__name__}, not its parser"
    )
    middle = [type(step).__name__ for step in structured.middle]
    assert middle == ["RunnableGenerator"], (
        f"with_structured_output's steps between the model and the parser are {middle}, not the "
        "refusal check alone: split_structured would skip them"
    )


def test_split_structured_refuses_another_shape():
    model = make_chat_model(LlmConfig(base_url=BASE, model="m"))
    with pytest.raises(TypeError, match="with_structured_output returned"):
        split_structured(model.bind(max_tokens=5))


class KeyRecorder(BaseCache):
    """Keeps the `llm_string` of every lookup; answers nothing."""

    def __init__(self) -> None:
        self.keys: list[str] = []

    def lookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        self.keys.append(llm_string)
        return None

    def update(self, prompt: str, llm_string: str, return_val: RETURN_VAL_TYPE) -> None:
        pass

    def clear(self, **kwargs: Any) -> None:
        self.keys.clear()


def test_llm_string_has_the_form_replay_key_rewrites():
    """The key LangChain hands the cache on a real request: OpenAI's form (its ceiling's name,
    no schema bounds) and a grammar server's form read alike after `replay_key`."""
    _, bounds = limits(
        "step_judgement", language="en", items=3, exact=True, reason_tokens=64, cap=4096
    )

    def key(base_url: str) -> str:
        recorder = KeyRecorder()

        async def ask() -> None:
            client = LlmClient(
                LlmConfig(base_url=base_url, model="m"), http_client=httpx.AsyncClient
            )
            call = client.structured("step_judgement", "json_schema", 512, bounds)
            call.model.bound.cache = recorder  # type: ignore[attr-defined]
            await call.model.ainvoke(PROMPT)

        with respx.mock:
            respx.post(f"{base_url}/chat/completions").mock(
                return_value=httpx.Response(200, json=REPLY)
            )
            asyncio.run(ask())
        assert len(recorder.keys) == 1
        return recorder.keys[0]

    openai, local = key(OPENAI), key(BASE)
    assert "('max_completion_tokens', 512)" in openai and "('max_tokens', 512)" in local, (
        "LangChain's llm_string no longer lists the ceiling as a repr'd ('name', value) pair; "
        f"replay_key renames it ({local[:200]}...)"
    )
    assert ", 'maxItems': " in local and ", 'maxLength': " in local, (
        "LangChain's llm_string no longer holds the schema's bounds as repr'd "
        f"\", 'maxItems': N\" pairs; replay_key strips them ({local[:200]}...)"
    )
    assert replay_key(openai) == replay_key(local), (
        "after replay_key, OpenAI's and a grammar server's llm_string differ by more than the "
        "ceiling's name and the schema's bounds"
    )


def test_generate_hooks_take_the_arguments_passed():
    for hook in (BaseChatOpenAI._generate, BaseChatOpenAI._agenerate):
        names = [name for name, _, _ in parameters(hook)]
        assert names == ["self", "messages", "stop", "run_manager", "kwargs"], (
            f"langchain-openai changed {hook.__name__}'s parameters to {names}; "
            "langchain_adapter.generate/agenerate pass messages, stop, run_manager"
        )
    assert isinstance(BaseChatModel.__dict__["_llm_type"], property)
    assert llm_type(make_chat_model(LlmConfig(base_url=BASE, model="m"))) == "openai-chat"


class OpenGate:
    def __init__(self) -> None:
        self.held = 0

    def hold(self) -> AbstractContextManager[None]:
        self.held += 1
        return nullcontext()

    def ahold(self) -> AbstractAsyncContextManager[None]:
        self.held += 1
        return nullcontext()


def test_a_gated_model_answers_through_the_inner_generation():
    gate = OpenGate()
    model = gated(make_chat_model(LlmConfig(base_url=BASE, model="m")), gate)
    with respx.mock:
        route = respx.post(f"{BASE}/chat/completions").mock(
            return_value=httpx.Response(200, json=REPLY)
        )
        answer = asyncio.run(model.ainvoke(PROMPT))
    assert isinstance(answer, AIMessage) and answer.content == '{"answer": "4"}'
    assert route.call_count == 1 and gate.held == 1


@pytest.mark.parametrize(
    "name",
    ["gpt-4", "gpt-4-0613", "gpt-3.5-turbo", "gpt-4o", "gpt-4.1", "qwen2.5-math", "fake-model"],
)
def test_langchain_still_turns_json_schema_into_tools_for_the_same_models(name):
    model = make_chat_model(LlmConfig(base_url=BASE, model=name))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runnable = model.with_structured_output(
            schema_for("segmentation", "function_calling", None), method="json_schema"
        )
    bound, _ = split_structured(runnable)
    sends_tools = "tools" in getattr(bound, "kwargs", {})
    assert sends_tools == answers_json_schema_by_tools(name), (
        f"langchain-openai no longer switches json_schema to function_calling for {name!r} as "
        "answers_json_schema_by_tools says: update it (agent/llm/langchain_adapter.py)"
    )
    assert any("function_calling" in str(w.message) for w in caught) == sends_tools


def test_a_model_without_structured_outputs_is_asked_by_tools_and_not_degraded():
    request_llm = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    with FakeOpenAI(ANSWERS) as server:
        report = llm_grader(server.base_url, model="gpt-4").grade(request_llm)
        methods = {operation_of(body)[1] for body in server.requests}
    assert not report.meta.degraded
    assert methods == {"function_calling"}
    assert {op.method for op in report.meta.llm_operations} == {"function_calling"}


TOOL_REPLY = {
    **REPLY,
    "choices": [
        {
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "segmentation", "arguments": '{"steps": ["a", "b"]}'},
                    }
                ],
            },
        }
    ],
}
CUT_REPLY = {
    **REPLY,
    "system_fingerprint": "fp",
    "service_tier": "default",
    "choices": [
        {
            "index": 0,
            "finish_reason": "length",
            "logprobs": None,
            "message": {"role": "assistant", "content": '{"answer": "4', "refusal": None},
        }
    ],
    "usage": {
        "prompt_tokens": 3,
        "completion_tokens": 9,
        "total_tokens": 12,
        "prompt_tokens_details": {"cached_tokens": 1},
        "completion_tokens_details": {"reasoning_tokens": 2},
    },
}


class CountingExecutor(ThreadPoolExecutor):
    """The loop's default executor, counting the calls handed to it."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.submitted = 0

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(*args, **kwargs)


def _generations(generate: Any, response: httpx.Response) -> tuple[Any, dict[str, Any], int]:
    """(the ChatResult or the exception raised, the request that reached the wire, thread hops)."""
    model = make_chat_model(LlmConfig(base_url=BASE, model="m"))
    structured = model.with_structured_output(
        schema_for("segmentation", "json_schema", None), method="json_schema", max_tokens=50
    )
    bound, _ = split_structured(structured)
    assert isinstance(bound, RunnableBinding)
    kwargs = {k: v for k, v in bound.kwargs.items() if k != "ls_structured_output_format"}
    executor = CountingExecutor()

    async def run() -> Any:
        asyncio.get_running_loop().set_default_executor(executor)
        for _ in range(2):  # counted from the second: the SDK's first request of a
            executor.submitted = 0  # client reads the platform in a thread, once
            try:
                outcome = await generate(model, PROMPT, **kwargs)
            except Exception as err:  # noqa: BLE001 - compared with the library's
                outcome = err
        return outcome

    with respx.mock(assert_all_called=True) as mock:
        route = mock.post(f"{BASE}/chat/completions").mock(return_value=response)
        outcome = asyncio.run(run())
    request = route.calls[-1].request
    sent = {"body": json.loads(request.content), "headers": dict(request.headers)}
    return outcome, sent, executor.submitted


def _same(outcome: Any) -> Any:
    if isinstance(outcome, Exception):
        return type(outcome), str(outcome)
    return (
        [(g.message.model_dump(), g.generation_info) for g in outcome.generations],
        outcome.llm_output,
    )


@pytest.mark.parametrize(
    "response",
    [
        httpx.Response(200, json=REPLY),
        httpx.Response(200, json=TOOL_REPLY),
        httpx.Response(200, json=CUT_REPLY),
        httpx.Response(200, text="<html>gateway</html>", headers={"content-type": "text/html"}),
        httpx.Response(200, json={"object": "error"}),
        httpx.Response(400, json={"error": {"message": "response_format is not supported"}}),
        httpx.Response(404, json={"error": {"message": "no such model"}}),
        httpx.Response(429, json={"error": {"message": "slow down"}}),
        httpx.Response(500, json={"error": {"message": "boom"}}),
    ],
    ids=["content", "tool-call", "cut-off", "html", "no-choices", "400", "404", "429", "500"],
)
def test_agenerate_answers_as_the_library_does_without_a_thread(response):
    """WireChatOpenAI._agenerate is the library's chat-completions branch with the result built
    on the event loop: the same request, the same ChatResult or error, no executor call."""
    ours, our_request, our_hops = _generations(WireChatOpenAI._agenerate, response)
    library, library_request, library_hops = _generations(BaseChatOpenAI._agenerate, response)
    assert our_request == library_request
    assert _same(ours) == _same(library), (
        "langchain-openai's _agenerate now answers otherwise than WireChatOpenAI._agenerate, "
        "its copy of the chat-completions branch: update it (agent/llm/langchain_adapter.py)"
    )
    assert our_hops == 0
    if library_hops == 0 and not isinstance(library, Exception):
        pytest.fail(
            "langchain-openai's _agenerate no longer builds its result in a worker "
            "thread: WireChatOpenAI._agenerate can go"
        )
