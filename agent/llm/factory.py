"""The one way to build a chat model: every LLM call in stepgrade goes through `make_chat_model`.

The grader and the benchmark runner (`stepgrade bench generate`) share it, so time-outs and the
answer cache behave the same everywhere. A plain `httpx.AsyncClient` is passed to the OpenAI
SDK (its documented escape hatch), so that respx sees every request; the SDK's own retries are
off (`max_retries=0`): tenacity, around each request, is the one retry layer
(`agent/llm/retry.py`). A client belongs to the event loop that uses it: build one per loop.
"""

from __future__ import annotations

from urllib.parse import urlparse

import httpx
from langchain_openai.chat_models.base import BaseChatOpenAI

from agent.llm.cache import AnswerCache, replay_transport
from agent.llm.config import LlmConfig


def _openai(base_url: str) -> bool:
    return (urlparse(base_url).hostname or "").endswith("openai.com")


def ceiling_field(base_url: str) -> str:
    """The request field that caps the answer's length: OpenAI's API reads
    `max_completion_tokens` (and refuses `max_tokens` for its reasoning models); the
    OpenAI-compatible servers (llama.cpp, vLLM, Ollama, LM Studio) read `max_tokens`, and
    llama-cpp-python nothing else: without it a small model may never stop."""
    return "max_completion_tokens" if _openai(base_url) else "max_tokens"


def grammar_bounds(base_url: str) -> bool:
    """Whether the schemas carry length bounds: the OpenAI-compatible servers turn a schema into
    a decoding grammar that honours `maxLength` / `maxItems`; OpenAI's strict mode refuses them."""
    return not _openai(base_url)


def make_chat_model(config: LlmConfig) -> BaseChatOpenAI:
    """A chat model on the chat-completions API: one time-out, no SDK retries, the cache.

    LangChain's `BaseChatOpenAI` (the class under its OpenAI-compatible providers) sends the
    request's fields as given; `ChatOpenAI` would rename `max_tokens`, which most servers read.
    """
    limits = httpx.Limits(max_connections=config.max_connections,
                          max_keepalive_connections=config.max_connections)
    transport = replay_transport(config.cache_dir) if config.replay_only and config.cache_dir else None
    client = httpx.AsyncClient(timeout=httpx.Timeout(config.timeout), limits=limits,
                               transport=transport)
    cache = AnswerCache(config.cache_dir) if config.cache_dir else None
    return BaseChatOpenAI(
        model=config.model,
        base_url=config.base_url,
        api_key=config.api_key,  # type: ignore[arg-type]
        temperature=config.temperature,
        timeout=config.timeout,
        max_retries=0,
        use_responses_api=False,
        http_async_client=client,
        cache=cache,
    )
