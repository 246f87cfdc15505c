"""Helpers for the LLM-mode tests: a grader wired to an endpoint, no retries unless asked.

`mock_http=True` gives the grader an httpx client, which respx intercepts; otherwise it has the
production client (the OpenAI SDK's httpx2), for tests against the fake server on 127.0.0.1.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from agent.context import Context
from agent.grader import Grader
from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from scoring.embed import hashed_bag_of_words
from scoring.judge import JudgeConfig, load_calibration

HAND_CALIBRATION = Path(__file__).resolve().parents[1] / "data" / "hand_calibration.json"

bag_of_words = hashed_bag_of_words


def llm_grader(base_url: str, *, timeout: float = 5.0, max_retries: int = 0,
               answer_timeout: float = 2.0, chunk_steps: int = 30, mock_http: bool = False,
               judge=None, **config) -> Grader:
    llm_config = LlmConfig(base_url=base_url, model="fake-model", timeout=timeout,
                           max_retries=max_retries, **config)
    client = LlmClient(llm_config, http_client=httpx.AsyncClient if mock_http else None)
    judge = JudgeConfig(**{"calibration": load_calibration(HAND_CALIBRATION), **(judge or {})})
    context = Context(embedder=bag_of_words, llm=client, llm_model="fake-model",
                      answer_timeout=answer_timeout, chunk_steps=chunk_steps, judge=judge)
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
