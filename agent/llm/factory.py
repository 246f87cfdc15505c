"""The one way to build a chat model: every LLM call in stepgrade goes through `make_chat_model`.

The grader and the benchmark runner (`stepgrade bench generate`) share it, so time-outs and the
answer cache behave the same everywhere. A plain `httpx.AsyncClient` is passed to the OpenAI
SDK (its documented escape hatch), so that respx sees every request; the SDK's own retries are
off (`max_retries=0`): tenacity, around each request, is the one retry layer
(`agent/llm/retry.py`). A client belongs to the event loop that uses it: build one per loop.
"""

from __future__ import annotations

import httpx
from langchain_openai import ChatOpenAI

from agent.llm.cache import AnswerCache, replay_transport
from agent.llm.config import LlmConfig


def make_chat_model(config: LlmConfig) -> ChatOpenAI:
    """A `ChatOpenAI` on the chat-completions API: one time-out, no SDK retries, the cache."""
    limits = httpx.Limits(max_connections=config.max_connections,
                          max_keepalive_connections=config.max_connections)
    transport = replay_transport(config.cache_dir) if config.replay_only and config.cache_dir else None
    client = httpx.AsyncClient(timeout=httpx.Timeout(config.timeout), limits=limits,
                               transport=transport)
    cache = (AnswerCache(config.cache_dir, f"{config.model} t={config.temperature}")
             if config.cache_dir else None)
    return ChatOpenAI(
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
