"""The fake OpenAI-compatible server: its answer shapes (whole, streamed, tool call), the cut at
`max_tokens`, and over HTTP on 127.0.0.1 its faults, refusals and records."""

from __future__ import annotations

import json

import httpx
import pytest

from eval_sets.fakes.openai_server import (
    ARITHMETIC_SLIP_ANSWERS,
    REFUSAL,
    FakeOpenAI,
    chunks,
    completion,
    count_tokens,
    encoded,
    prompt_of,
    requested_operation,
    sse,
    streamed,
)

ANSWER = {"correct": True, "reason": "equal"}


def body(**extra) -> dict:
    return {
        "model": "m",
        "messages": [{"role": "user", "content": "Is 2 + 2 = 4?"}],
        "response_format": {"type": "json_schema", "json_schema": {"name": "answer_judgement"}},
        **extra,
    }


def test_tokens_are_words_marks_and_cjk_characters() -> None:
    assert count_tokens("2 + 3 = 5.") == 6
    assert count_tokens("答案是 5") == 4
    assert count_tokens("") == 0


def test_the_prompt_joins_every_message() -> None:
    messages = [{"role": "system", "content": "a"}, {"role": "user", "content": [{"x": 1}]}]
    assert prompt_of({"messages": messages}) == 'a\n[{"x": 1}]'
    assert prompt_of({}) == ""


def test_the_operation_is_read_from_each_structured_output_method() -> None:
    assert requested_operation(body()) == ("answer_judgement", "json_schema")
    tools = {"tools": [{"function": {"name": "segmentation"}}], "messages": []}
    assert requested_operation(tools) == ("segmentation", "function_calling")
    prompt = {"messages": [{"content": "Reply with the JSON schema named 'difficulty'."}]}
    assert requested_operation(prompt) == ("difficulty", "json_mode")
    assert requested_operation({"messages": []}) == ("unknown", "json_mode")


def test_a_completion_carries_the_answer_and_its_usage() -> None:
    out = completion(body(), ANSWER, "json_schema", "answer_judgement")
    choice = out["choices"][0]
    assert json.loads(choice["message"]["content"]) == ANSWER and choice["finish_reason"] == "stop"
    used = count_tokens(json.dumps(ANSWER))
    assert out["usage"]["completion_tokens"] == used
    assert out["usage"]["total_tokens"] == out["usage"]["prompt_tokens"] + used


def test_a_long_answer_is_cut_at_max_tokens() -> None:
    out = completion(body(max_tokens=3), ANSWER, "json_schema", "answer_judgement")
    choice = out["choices"][0]
    assert choice["message"]["content"] == '{"correct' and choice["finish_reason"] == "length"
    assert out["usage"]["completion_tokens"] == 3


def test_a_tool_call_carries_the_answer_as_arguments() -> None:
    out = completion(body(), ANSWER, "function_calling", "answer_judgement")
    message = out["choices"][0]["message"]
    assert message["content"] is None and out["choices"][0]["finish_reason"] == "tool_calls"
    call = message["tool_calls"][0]["function"]
    assert call["name"] == "answer_judgement" and json.loads(call["arguments"]) == ANSWER


@pytest.mark.parametrize("method", ["json_schema", "function_calling"])
def test_streamed_chunks_add_up_to_the_answer_and_end_with_the_usage(method) -> None:
    request = body(stream=True, stream_options={"include_usage": True})
    payload = completion(request, ANSWER, method, "answer_judgement")
    parts = chunks(request, payload)
    assert parts[0]["choices"][0]["delta"]["role"] == "assistant"
    assert parts[-1]["choices"] == [] and parts[-1]["usage"] == payload["usage"]
    assert parts[-2]["choices"][0]["finish_reason"] == payload["choices"][0]["finish_reason"]
    if method == "json_schema":
        text = "".join(p["choices"][0]["delta"].get("content") or "" for p in parts[1:-2])
    else:
        text = "".join(
            p["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"] for p in parts[1:-2]
        )
    assert json.loads(text) == ANSWER
    assert len(chunks(body(stream=True), payload)) == len(parts) - 1  # no usage unless asked


def test_sse_and_encoding() -> None:
    assert sse(None) == b"data: [DONE]\n\n"
    assert sse({"a": "é"}) == 'data: {"a": "é"}\n\n'.encode()
    payload = completion(body(), ANSWER, "json_schema", "answer_judgement")
    whole, media = encoded(body(), payload)
    assert media == "application/json" and json.loads(whole) == payload
    stream, media = encoded(body(stream=True), payload)
    assert media == "text/event-stream" and stream.endswith(b"data: [DONE]\n\n")
    assert streamed(body(stream=True)) and not streamed(body())


def post(server: FakeOpenAI, request: dict) -> httpx.Response:
    return httpx.post(f"{server.base_url}/chat/completions", json=request, timeout=10)


def test_the_server_answers_from_its_mapping_and_records_the_requests() -> None:
    with FakeOpenAI() as server:
        assert server.base_url.startswith("http://127.0.0.1:")
        models = httpx.get(f"{server.base_url}/models", timeout=10).json()
        assert models["data"][0]["id"] == "fake-model" and server.models_asked == 1
        reply = post(server, body())
        assert reply.status_code == 200
        content = reply.json()["choices"][0]["message"]["content"]
        assert json.loads(content) == ARITHMETIC_SLIP_ANSWERS["answer_judgement"]
        missing = post(
            server, body(response_format={"type": "json_schema", "json_schema": {"name": "nope"}})
        )
        assert missing.status_code == 404 and "no answer known for nope" in missing.text
        assert server.requests == [
            body(),
            body(response_format={"type": "json_schema", "json_schema": {"name": "nope"}}),
        ]


def test_an_oracle_reads_the_prompt() -> None:
    asked: list[tuple[str, str]] = []

    def oracle(operation: str, prompt: str) -> dict:
        asked.append((operation, prompt))
        return ANSWER

    with FakeOpenAI(oracle) as server:
        assert post(server, body()).status_code == 200
    assert asked == [("answer_judgement", "Is 2 + 2 = 4?")]


@pytest.mark.parametrize(("fault", "status"), [("429", 429), ("500", 500)])
def test_error_faults_answer_their_status(fault, status) -> None:
    with FakeOpenAI(fault=fault) as server:
        reply = post(server, body())
    assert reply.status_code == status and reply.json()["error"]["message"] == f"injected {fault}"


def test_malformed_and_garbage_answer_200_without_json() -> None:
    with FakeOpenAI(fault="malformed") as server:
        prose = post(server, body()).json()["choices"][0]["message"]["content"]
        assert prose == "Sure! The steps look fine."
        server.fault = "garbage"
        page = post(server, body())
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")


def test_a_refused_method_is_a_500_with_the_refusal() -> None:
    with FakeOpenAI(refuse=frozenset({"json_schema"})) as server:
        reply = post(server, body())
    assert reply.status_code == 500 and reply.json()["error"]["message"] == REFUSAL


def test_a_fault_rate_draws_faults_and_counts_them() -> None:
    with FakeOpenAI(fault_rate=1.0, seed=3) as server:
        statuses: list[int | str] = []
        for _ in range(4):
            request = body()
            try:
                statuses.append(
                    httpx.post(
                        f"{server.base_url}/chat/completions", json=request, timeout=0.5
                    ).status_code
                )
            except httpx.TimeoutException:
                statuses.append("hang")
    assert sum(server.injected.values()) == 4
    assert statuses.count(500) == server.injected["500"]
    assert statuses.count(429) == server.injected["429"]
    assert statuses.count("hang") == server.injected["hang"]
    assert statuses.count(200) == server.injected["malformed"] + server.injected["garbage"]


def test_the_server_header_can_name_another_server() -> None:
    with FakeOpenAI(server="llama.cpp") as server:
        assert httpx.get(f"{server.base_url}/models", timeout=10).headers["server"] == "llama.cpp"
