"""One OpenAI-compatible endpoint as the grader sees it: structured runnables, the negotiated
method, and when the endpoint last answered.

The runnables are langchain-openai's `with_structured_output(..., method=..., include_raw=True)`
on a chat model of the running event loop (an HTTP connection belongs to the loop that opened
it, and the CLI, the tests and the benchmark runner each run their own loops). They are built
once per (operation, method, `max_tokens`) and reused: building one costs more than a call
(`agent/llm/tokens.py` rounds the ceilings so that there are few).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from dataclasses import dataclass, field
from typing import Any

from langchain_core.runnables import Runnable
from langchain_openai.chat_models.base import BaseChatOpenAI

from agent.llm.config import LlmConfig
from agent.llm.factory import ceiling_field, grammar_bounds, make_chat_model
from agent.llm.schemas import Bounds, bounded_json_schema, strict_json_schema
from scoring.schema import StructuredMethod


def schema_for(operation: str, method: StructuredMethod, bounds: Bounds | None) -> dict[str, Any]:
    """The operation's schema (bounded, unless None) in the form `with_structured_output`
    takes for `method`."""
    schema = strict_json_schema(operation) if bounds is None else bounded_json_schema(operation, bounds)
    if method == "function_calling":
        return {"name": operation, "description": f"Report the {operation}.", "parameters": schema}
    return {"name": operation, "schema": schema, "strict": True}


@dataclass
class _LoopModels:
    model: BaseChatOpenAI
    runnables: dict[tuple[Any, ...], Runnable[Any, Any]] = field(default_factory=dict)
    negotiating: asyncio.Lock = field(default_factory=asyncio.Lock)


class LlmClient:
    """Shared by every grade of a grader; safe to use from several event loops in turn."""

    def __init__(self, config: LlmConfig) -> None:
        self.config = config
        self.bounded = grammar_bounds(config.base_url)
        self.accepted: StructuredMethod | None = None
        self.unsupported: set[StructuredMethod] = set()
        self.last_answer: float | None = None  # time.monotonic() of the last HTTP 200
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopModels]
        self._loops = weakref.WeakKeyDictionary()

    def _here(self) -> _LoopModels:
        loop = asyncio.get_running_loop()
        models = self._loops.get(loop)
        if models is None:
            models = self._loops[loop] = _LoopModels(make_chat_model(self.config))
        return models

    def structured(self, operation: str, method: StructuredMethod, max_tokens: int,
                   bounds: Bounds) -> Runnable[Any, Any]:
        """`{raw, parsed, parsing_error}` for `operation` by `method`, at most `max_tokens`,
        with the schema's length `bounds` where the endpoint accepts them."""
        models = self._here()
        shape = bounds if self.bounded else None
        key = (operation, method, max_tokens, shape)
        runnable = models.runnables.get(key)
        if runnable is None:
            strict = {} if method == "json_mode" else {"strict": True}
            runnable = models.model.with_structured_output(
                schema_for(operation, method, shape), method=method, include_raw=True,
                **{ceiling_field(self.config.base_url): max_tokens}, **strict)
            models.runnables[key] = runnable
        return runnable

    def negotiation(self) -> asyncio.Lock:
        """Held by the first operation while no method is known, so that it is found once."""
        return self._here().negotiating

    def methods(self) -> list[StructuredMethod]:
        """The accepted method first, then the others in the configured order, minus refusals."""
        order = [m for m in self.config.methods if m not in self.unsupported]
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
        self.last_answer = time.monotonic()

    def answered_within(self, seconds: float) -> bool:
        return self.last_answer is not None and time.monotonic() - self.last_answer <= seconds
