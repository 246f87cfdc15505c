"""One OpenAI-compatible endpoint as the grader sees it: structured calls, the negotiated
method, and when the endpoint last answered.

A call is langchain-openai's `with_structured_output(schema, method=...)` on a chat model of
the running event loop (an HTTP connection belongs to the loop that opened it, and the CLI, the
tests and the benchmark runner each run their own loops), split into the model bound for the
method and the method's parser (`agent.llm.langchain_adapter.split_structured`, which says why).
Calls are built once per (operation, method, `max_tokens`, bounds) and reused: building one
costs more than a call (`agent/llm/tokens.py` rounds the ceilings so that there are few).

Answers can be streamed (`LlmConfig.stream`; by default only to llama.cpp's server, for its
CPU) so that a request the grade's deadline cancels stops on the server too. llama.cpp's server
checks a streamed request's connection at every token it sends; a non-streamed request's only
when a full second passes with no result for any request on the server
(`server_response_reader::next` in its `server-queue.cpp`), which another request streaming
keeps from happening, so a non-streamed request whose client left runs on to its `max_tokens`.
The price is client CPU: the SDK and LangChain build objects per chunk, a token each, which
makes a streamed call several times dearer than a whole one.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx
import httpx2
import openai
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.ai import add_ai_message_chunks
from langchain_core.output_parsers import BaseOutputParser
from langchain_core.runnables import Runnable
from langchain_openai.chat_models.base import BaseChatOpenAI

from agent.llm.config import STREAM_FOR_SERVERS, LlmConfig
from agent.llm.factory import ceiling_field, grading_client, grammar_bounds, make_chat_model
from agent.llm.langchain_adapter import answers_json_schema_by_tools, split_structured
from agent.llm.schemas import Bounds, bounded_json_schema, strict_json_schema
from scoring.schema import StructuredMethod


def schema_for(operation: str, method: StructuredMethod, bounds: Bounds | None) -> dict[str, Any]:
    """The operation's schema (bounded, unless None) in the form `with_structured_output`
    takes for `method`."""
    schema = (
        strict_json_schema(operation) if bounds is None else bounded_json_schema(operation, bounds)
    )
    if method == "function_calling":
        return {"name": operation, "description": f"Report the {operation}.", "parameters": schema}
    return {"name": operation, "schema": schema, "strict": True}


@dataclass(frozen=True)
class StructuredCall:
    """`with_structured_output`'s two halves: the model bound for the method, its parser."""

    model: Runnable[Any, Any]
    parser: BaseOutputParser[Any]


class Slots(Protocol):
    """A cap on requests in flight shared with other processes (`eval_sets.runner.llm_gate`)."""

    def ahold(self) -> AbstractAsyncContextManager[None]:
        """Hold one slot while the block runs."""


# Seconds the one `GET /models` that identifies the endpoint may take (at most the request time-out).
IDENTIFY_TIMEOUT = 5.0


@dataclass
class _LoopModels:
    http: Any
    model: BaseChatOpenAI
    calls: dict[tuple[Any, ...], StructuredCall] = field(default_factory=dict)
    negotiating: asyncio.Lock = field(default_factory=asyncio.Lock)


class LlmClient:
    """Shared by every grade of a grader; safe to use from several event loops in turn."""

    def __init__(
        self,
        config: LlmConfig,
        http_client: Callable[[], Any] | None = None,
        slots: Slots | None = None,
        chat_model: Callable[[], BaseChatOpenAI] | None = None,
    ) -> None:
        """`http_client` makes the HTTP client of each event loop (default: `grading_client`;
        tests: one respx mocks); every request holds one of `slots`, when given, while it runs;
        `chat_model` makes each event loop's chat model in place of `make_chat_model` (tests:
        `agent.llm.fake.ScriptedChatModel`, which answers in process)."""
        self.config = config
        self.http_client = http_client
        self.chat_model = chat_model
        self.slots = slots
        self.bounded = grammar_bounds(config.base_url)
        self.identity: str | None = None  # the endpoint's `Server` header, once read
        self.accepted: StructuredMethod | None = None
        self.unsupported: set[StructuredMethod] = set()
        self.last_answer: float | None = None  # time.monotonic() of the last HTTP 200
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopModels]
        self._loops = weakref.WeakKeyDictionary()

    def _here(self) -> _LoopModels:
        loop = asyncio.get_running_loop()
        models = self._loops.get(loop)
        if models is None:
            client = self.http_client() if self.http_client else grading_client(self.config)
            model = self.chat_model() if self.chat_model else make_chat_model(self.config, client)
            models = self._loops[loop] = _LoopModels(client, model)
        return models

    @property
    def streams(self) -> bool:
        """Whether requests ask for streamed answers (`LlmConfig.stream`)."""
        if self.config.cache_dir is not None:  # LangChain's answer cache answers whole
            return False
        if self.config.stream == "auto":
            return (self.identity or "").startswith(STREAM_FOR_SERVERS)
        return self.config.stream

    def unidentified(self) -> bool:
        """Streaming is "auto" and the endpoint has not yet said what server it is."""
        return (
            self.config.stream == "auto" and self.identity is None and self.config.cache_dir is None
        )

    async def identify(self) -> None:
        """The endpoint's `Server` header, from `GET /models`: any HTTP answer gives it (a 404
        too). A refused or broken connection leaves it unknown, for the next operation to ask
        again (a service may start before its model server); an endpoint that takes the
        connection but does not answer in time is not asked again (answers come whole), so
        that no operation waits for it twice. Asked by one operation at a time, and only while
        unknown."""
        if not self.unidentified():
            return
        async with self.negotiation():
            if not self.unidentified():  # another operation found it meanwhile
                return
            try:
                response = await self._here().http.get(
                    f"{self.config.base_url}/models",
                    headers={"Authorization": f"Bearer {self.config.api_key}"},
                    timeout=min(self.config.timeout, IDENTIFY_TIMEOUT),
                )
            except (httpx.TimeoutException, httpx2.TimeoutException):
                self.identity = ""
                return
            except (httpx.HTTPError, httpx2.HTTPError):
                return
            self.identity = response.headers.get("server", "")

    def structured(
        self, operation: str, method: StructuredMethod, max_tokens: int, bounds: Bounds
    ) -> StructuredCall:
        """The call for `operation` by `method`, at most `max_tokens`, with the schema's length
        `bounds` where the endpoint accepts them."""
        models = self._here()
        shape = bounds if self.bounded else None
        key = (operation, method, max_tokens, shape)
        call = models.calls.get(key)
        if call is None:
            options: dict[str, Any] = {ceiling_field(self.config.base_url): max_tokens}
            if method != "json_mode":
                options["strict"] = True
            runnable = models.model.with_structured_output(
                schema_for(operation, method, shape), method=method, **options
            )
            call = models.calls[key] = StructuredCall(*split_structured(runnable))
        return call

    async def answer(self, call: StructuredCall, messages: list[BaseMessage]) -> AIMessage:
        """One request's answer, holding one of the shared slots (when given) while it runs."""
        if self.slots is None:
            return await self._answer(call, messages)
        async with self.slots.ahold():
            return await self._answer(call, messages)

    async def _answer(self, call: StructuredCall, messages: list[BaseMessage]) -> AIMessage:
        """Streamed, the chunks added up by LangChain (which keeps a tool call's arguments as
        sent, where a whole `ainvoke` of a stream would close a cut-off JSON for us), within
        the request's time-out (the HTTP client's applies to each chunk only)."""
        if not self.streams:
            return await call.model.ainvoke(messages)
        limit = asyncio.timeout(self.config.timeout)
        try:
            async with limit:
                chunks: list[AIMessageChunk] = [c async for c in call.model.astream(messages)]
        except TimeoutError:
            if not limit.expired():
                raise
            request = httpx2.Request("POST", f"{self.config.base_url}/chat/completions")
            raise openai.APITimeoutError(request=request) from None
        if not chunks:
            raise ValueError("the stream carried no answer")
        return add_ai_message_chunks(*chunks)  # an AIMessage, with its `tool_call_chunks`

    def negotiation(self) -> asyncio.Lock:
        """Held by the first operation while no method is known, so that it is found once."""
        return self._here().negotiating

    def methods(self) -> list[StructuredMethod]:
        """The accepted method first, then the others in the configured order, minus refusals."""
        order = [
            m
            for m in self.config.methods
            if m not in self.unsupported
            and not (m == "json_schema" and answers_json_schema_by_tools(self.config.model))
        ]
        if self.accepted in order:
            order.remove(self.accepted)
            order.insert(0, self.accepted)
        return order

    def settle(self, accepted: StructuredMethod, refused: list[StructuredMethod]) -> None:
        """`accepted` answered after `refused` were turned down for the same request: remember
        both. (A request every method refuses says nothing about the methods.)"""
        self.unsupported.update(m for m in refused if m != accepted)
        self.accepted = accepted

    def answered(self) -> None:
        """Note an HTTP 200 now, for readiness checks."""
        self.last_answer = time.monotonic()

    def answered_within(self, seconds: float) -> bool:
        """Whether the endpoint answered within the last `seconds`."""
        return self.last_answer is not None and time.monotonic() - self.last_answer <= seconds
