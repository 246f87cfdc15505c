"""Helpers for the LLM-mode tests: a grader wired to an endpoint, no retries unless asked."""

from __future__ import annotations

import pytest

from agent.context import Context
from agent.grader import Grader
from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from scoring.embed import hashed_bag_of_words

bag_of_words = hashed_bag_of_words


def llm_grader(base_url: str, *, timeout: float = 5.0, max_retries: int = 0,
               answer_timeout: float = 2.0, chunk_steps: int = 30, **config) -> Grader:
    llm_config = LlmConfig(base_url=base_url, model="fake-model", timeout=timeout,
                           max_retries=max_retries, **config)
    context = Context(embedder=bag_of_words, llm=LlmClient(llm_config), llm_model="fake-model",
                      answer_timeout=answer_timeout, chunk_steps=chunk_steps)
    return Grader(context)


@pytest.fixture(scope="session")
def fake_embedder():
    return bag_of_words


@pytest.fixture
def make_llm_grader():
    return llm_grader
