"""The one retry layer: which failures are retried, how long the server asked to wait, and a
retry that would end past the deadline never started."""

from __future__ import annotations

import asyncio
import email.utils
import time

import httpx
import openai
import pytest

from agent.llm.retry import not_supported, retry_after, retrying, transient

REQUEST = httpx.Request("POST", "http://llm.test/v1/chat/completions")


def status(code: int, message: str = "error", headers: dict | None = None) -> openai.APIStatusError:
    response = httpx.Response(code, headers=headers or {}, request=REQUEST)
    return openai.APIStatusError(message, response=response, body=None)


@pytest.mark.parametrize(
    ("err", "retried"),
    [
        (openai.APIConnectionError(request=REQUEST), True),
        (openai.APITimeoutError(request=REQUEST), True),
        (status(429), True),
        (status(408), True),
        (status(409), True),
        (status(500), True),
        (status(503), True),
        (status(400), False),
        (status(401), False),
        (status(404), False),
        (status(500, "json_schema is not supported"), False),  # for the method negotiation
        (ValueError("not an HTTP failure"), False),
    ],
    ids=repr,
)
def test_what_is_retried(err, retried):
    assert transient(err) is retried


@pytest.mark.parametrize(
    ("err", "refused"),
    [
        (status(400, "anything at all"), True),
        (status(422, "bad schema"), True),
        (status(400, "maximum context length is 4096 tokens"), False),  # no method fixes that
        (status(404, "tools are not supported"), True),
        (status(500, "grammar failed to compile"), True),
        (status(500, "out of memory"), False),
        (status(501, "Not Implemented"), True),
        (openai.APIConnectionError(request=REQUEST), False),
    ],
    ids=repr,
)
def test_which_failures_refuse_the_structured_output_method(err, refused):
    assert not_supported(err) is refused


def test_the_wait_the_server_asks_for():
    assert retry_after(status(429, headers={"retry-after": "3"})) == 3.0
    assert retry_after(status(429, headers={"retry-after-ms": "250"})) == 0.25
    assert retry_after(status(429, headers={"retry-after-ms": "x", "retry-after": "2"})) == 2.0
    later = email.utils.formatdate(time.time() + 60, usegmt=True)
    assert 55 <= retry_after(status(429, headers={"retry-after": later})) <= 60
    past = email.utils.formatdate(time.time() - 60, usegmt=True)
    assert retry_after(status(429, headers={"retry-after": past})) == 0.0
    assert retry_after(status(429)) is None
    assert retry_after(ValueError("no response")) is None and retry_after(None) is None


def test_a_retry_after_that_is_neither_seconds_nor_a_date_is_no_wait():
    assert retry_after(status(429, headers={"retry-after": "soon"})) is None


def run_attempts(max_retries: int, deadline_in: float | None, failure: Exception) -> int:
    attempts = 0

    async def scenario() -> None:
        nonlocal attempts
        loop = asyncio.get_running_loop()
        deadline = None if deadline_in is None else loop.time() + deadline_in
        async for attempt in retrying(max_retries, deadline):
            with attempt:
                attempts += 1
                raise failure

    with pytest.raises(type(failure)):
        asyncio.run(scenario())
    return attempts


def test_retries_stop_at_max_retries_and_other_failures_are_not_retried():
    quick = status(429, headers={"retry-after-ms": "1"})
    assert run_attempts(2, None, quick) == 3
    assert run_attempts(0, None, quick) == 1
    assert run_attempts(5, None, status(400)) == 1


def test_no_retry_starts_whose_wait_ends_past_the_deadline():
    asked_to_wait = status(429, headers={"retry-after": "30"})
    start = time.monotonic()
    assert run_attempts(5, 1.0, asked_to_wait) == 1
    assert time.monotonic() - start < 5
