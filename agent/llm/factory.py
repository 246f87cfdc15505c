"""The one way to build a chat model: every LLM call in stepgrade goes through `make_chat_model`.

The grader and the benchmark runner (`stepgrade bench generate`) share it, so time-outs and the
answer cache behave the same everywhere. Its default HTTP client is a plain `httpx.AsyncClient`
(the SDK's documented escape hatch), which respx sees. The grader passes `grading_client`, sized
for a busy service: the OpenAI SDK's own kind (`httpx2`), its requests taking turns over small
connection pools. A pool's bookkeeping per request grows with the requests in it (httpcore2's
linearly, httpx 0.28's quadratically), so many small pools cost less CPU per request than one
large one, and httpx2's less than httpx's. The SDK's own retries
are off (`max_retries=0`): tenacity, around each request, is the one retry layer
(`agent/llm/retry.py`). A client belongs to the event loop that uses it: build one per loop.
"""

from __future__ import annotations

import itertools
from typing import Any
from urllib.parse import urlparse

import httpx
import httpx2
from langchain_openai.chat_models.base import BaseChatOpenAI

from agent.llm.cache import AnswerCache, replay_transport
from agent.llm.config import LlmConfig
from agent.llm.langchain_adapter import WireChatOpenAI


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


POOL_SIZE = 8


class TakeTurns(httpx2.AsyncBaseTransport):
    """Requests in turn over several small httpx2 connection pools (see the module's note).

    The pools share one TLS context: each would otherwise load the system's certificates
    itself, at every grader's first request."""

    def __init__(self, connections: int, pool_size: int = POOL_SIZE) -> None:
        sizes = [pool_size] * (connections // pool_size) + [connections % pool_size]
        tls = httpx2.create_ssl_context()  # as each pool would make its own
        self.pools = [
            httpx2.AsyncHTTPTransport(
                verify=tls, limits=httpx2.Limits(max_connections=n, max_keepalive_connections=n)
            )
            for n in sizes
            if n
        ]
        self._turn = itertools.cycle(self.pools)

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        """Send `request` through the next pool in turn."""
        return await next(self._turn).handle_async_request(request)

    async def aclose(self) -> None:
        """Close every pool."""
        for pool in self.pools:
            await pool.aclose()


def grading_client(config: LlmConfig) -> httpx2.AsyncClient:
    """The grader's HTTP client: small pools taking turns, or the replay folder's refusals."""
    replay = config.replay_only and config.cache_dir is not None
    transport = (
        replay_transport(config.cache_dir)  # type: ignore[arg-type]
        if replay
        else TakeTurns(max(1, config.max_connections))
    )
    return httpx2.AsyncClient(timeout=httpx2.Timeout(config.timeout), transport=transport)


def make_chat_model(config: LlmConfig, http_async_client: Any | None = None) -> BaseChatOpenAI:
    """A chat model on the chat-completions API: one time-out, no SDK retries, the cache.

    LangChain's `BaseChatOpenAI` (the class under its OpenAI-compatible providers) sends the
    request's fields as given; `ChatOpenAI` would rename `max_tokens`, which most servers read.
    """
    if http_async_client is None:
        http_async_client = httpx.AsyncClient(timeout=httpx.Timeout(config.timeout))
    cache = AnswerCache(config.cache_dir) if config.cache_dir else None
    return WireChatOpenAI(
        model=config.model,
        base_url=config.base_url,
        api_key=config.api_key,  # type: ignore[arg-type]
        temperature=config.temperature,
        timeout=config.timeout,
        max_retries=0,
        use_responses_api=False,
        http_async_client=http_async_client,
        cache=cache,
        stream_usage=True,  # a streamed answer ends with its token counts
        stream_chunk_timeout=None,  # the request's own time-out applies (`LlmClient.answer`)
    )
