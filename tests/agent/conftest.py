"""Helpers for the LLM-mode tests: a grader wired to an endpoint, no retries unless asked.

`mock_http=True` gives the grader an httpx client, which respx intercepts; otherwise it has the
production client (the OpenAI SDK's httpx2), for tests against the fake server on 127.0.0.1.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import httpx
import pytest

from agent.context import Context
from agent.grader import Grader
from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from agent.llm.fake import FAKE_CONFIG, ChatScript, scripted_client
from eval_sets.fakes.embedder import hashed_bag_of_words
from eval_sets.fakes.openai_server import (
    ARITHMETIC_SLIP_ANSWERS,
    ARITHMETIC_SLIP_JUDGED,
    ARITHMETIC_SLIP_STEPS,
    completion,
    encoded,
    requested_operation,
)
from scoring.judge import JudgeConfig, load_calibration

HAND_CALIBRATION = Path(__file__).resolve().parents[1] / "data" / "hand_calibration.json"

bag_of_words = hashed_bag_of_words


def llm_grader(
    base_url: str,
    *,
    timeout: float = 5.0,
    max_retries: int = 0,
    answer_timeout: float = 2.0,
    chunk_steps: int = 30,
    mock_http: bool = False,
    judge=None,
    model: str = "fake-model",
    **config,
) -> Grader:
    llm_config = LlmConfig(
        base_url=base_url, model=model, timeout=timeout, max_retries=max_retries, **config
    )
    client = LlmClient(llm_config, http_client=httpx.AsyncClient if mock_http else None)
    return grader_on(client, answer_timeout=answer_timeout, chunk_steps=chunk_steps, judge=judge)


def scripted_grader(
    script: ChatScript | dict | Callable,
    *,
    answer_timeout: float = 2.0,
    chunk_steps: int = 30,
    judge=None,
    **config,
) -> Grader:
    """A grader whose LLM answers in process from `script` (or from an operation -> answer
    mapping, or an (operation, prompt) responder): no HTTP, for tests where it is not the point."""
    if isinstance(script, ChatScript):
        chat = script
    elif callable(script):
        chat = ChatScript(script)
    else:
        answers = script
        chat = ChatScript(lambda operation, _prompt: answers.get(operation))
    client = scripted_client(chat, replace(FAKE_CONFIG, max_retries=0, **config))
    return grader_on(client, answer_timeout=answer_timeout, chunk_steps=chunk_steps, judge=judge)


def grader_on(client: LlmClient, *, answer_timeout: float, chunk_steps: int, judge=None) -> Grader:
    """The test grader (hand calibration, torch-free embedder) on `client`."""
    judge = JudgeConfig(**{"calibration": load_calibration(HAND_CALIBRATION), **(judge or {})})
    context = Context(
        embedder=bag_of_words,
        llm=client,
        llm_model=client.config.model,
        answer_timeout=answer_timeout,
        chunk_steps=chunk_steps,
        judge=judge,
    )
    return Grader(context)


@pytest.fixture(scope="session")
def fake_embedder():
    return bag_of_words


@pytest.fixture
def make_llm_grader():
    return llm_grader


def respx_grader(base_url: str, **kwargs) -> Grader:
    """A grader whose requests respx intercepts; whole answers unless `stream` says otherwise
    ("auto" would first ask `GET /models`, which the tests' routes leave unmocked)."""
    kwargs.setdefault("stream", False)
    return llm_grader(base_url, mock_http=True, **kwargs)


# respx's answers: those a model gives for the bundled `arithmetic_slip` example.
BASE = "http://llm.test/v1"
URL = f"{BASE}/chat/completions"

STEPS = ARITHMETIC_SLIP_STEPS
JUDGED = ARITHMETIC_SLIP_JUDGED
ANSWERS = {
    **ARITHMETIC_SLIP_ANSWERS,
    "difficulty": {
        "level": 1,
        "process_evaluation_needed": False,
        "problem_type": "calculation",
        "reason": "two additions and a product",
    },
}


def body_of(request: httpx.Request) -> dict:
    return json.loads(request.content)


operation_of = requested_operation


def answered(body: dict, payload: dict) -> httpx.Response:
    """HTTP 200 carrying the completion `payload`, streamed when the request asked for it."""
    content, media_type = encoded(body, payload)
    return httpx.Response(200, content=content, headers={"content-type": media_type})


def ok(request: httpx.Request, answers: dict = ANSWERS) -> httpx.Response:
    body = body_of(request)
    operation, method = operation_of(body)
    return answered(body, completion(body, answers[operation], method, operation))
