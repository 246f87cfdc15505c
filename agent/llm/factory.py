"""The one way to build a chat model: every LLM call in stepgrade goes through `make_chat_model`.

The grader and the benchmark runner (`stepgrade bench generate`) share it, so timeouts, retries
and cassettes behave the same everywhere. Plain `httpx` clients are passed to the OpenAI SDK (its
documented escape hatch) so that respx and the cassette transport see every request.
"""

from __future__ import annotations

import httpx
from langchain_core.language_models import BaseChatModel
from langchain_openai import ChatOpenAI

from agent.llm.cassette import CassetteTransport
from agent.llm.config import LlmConfig
from agent.llm.transport import ShardedTransport


def _clients(config: LlmConfig) -> tuple[httpx.Client, httpx.AsyncClient]:
    timeout = httpx.Timeout(config.timeout)
    pools = ShardedTransport(config.max_connections)
    if config.record_dir is None and config.replay_dir is None:
        return httpx.Client(timeout=timeout, transport=pools), httpx.AsyncClient(timeout=timeout, transport=pools)
    cassette = CassetteTransport(
        record_dir=config.record_dir, replay_dir=config.replay_dir, inner=pools, ainner=pools
    )
    return (
        httpx.Client(timeout=timeout, transport=cassette),
        httpx.AsyncClient(timeout=timeout, transport=cassette),
    )


def make_chat_model(config: LlmConfig) -> BaseChatModel:
    """A `ChatOpenAI` on the chat-completions API with one timeout and one retry layer."""
    http_client, http_async_client = _clients(config)
    return ChatOpenAI(
        model=config.model,
        base_url=config.base_url,
        api_key=config.api_key,  # type: ignore[arg-type]
        temperature=config.temperature,
        timeout=config.timeout,
        max_retries=config.max_retries,
        use_responses_api=False,
        http_client=http_client,
        http_async_client=http_async_client,
    )
