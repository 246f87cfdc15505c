"""A cap on concurrent LLM requests shared by every process of a run, wrapped around a chat model.

On one machine `--concurrency` bounds the items in flight, and so the requests. Spread over a
cluster, N actors with a few items each would send N times as many requests to one endpoint; the
Ray engine therefore hands each actor a `Gate` (a slot lease from one shared actor) and every
model request, the grader's (`LlmClient.slots`, each attempt) and the solution generator's (a
wrapped chat model), holds a slot while it runs. Retries and degradation are untouched.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import replace
from typing import Any, Protocol

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult
from langchain_core.runnables import Runnable

from agent.grader import Grader
from agent.llm.langchain_adapter import agenerate, generate, llm_type


class Gate(Protocol):
    """One slot per request in flight, across processes."""

    def hold(self) -> AbstractContextManager[None]:
        """Hold one slot while the block runs."""
        ...

    def ahold(self) -> AbstractAsyncContextManager[None]:
        """Hold one slot while the async block runs."""
        ...


class GatedChatModel(BaseChatModel):
    """`inner` with every generation (each HTTP round trip the SDK retries included) in a slot."""

    inner: BaseChatModel
    gate: Any

    @property
    def _llm_type(self) -> str:
        return f"gated-{llm_type(self.inner)}"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        with self.gate.hold():
            return generate(self.inner, messages, stop, run_manager, **kwargs)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        async with self.gate.ahold():
            return await agenerate(self.inner, messages, stop, run_manager, **kwargs)

    def bind_tools(self, tools: Any, **kwargs: Any) -> Runnable:
        """The inner model formats the tools (OpenAI's shape); the call still goes through here."""
        bound = self.inner.bind_tools(tools, **kwargs)
        return self.bind(**getattr(bound, "kwargs", {}))


def gated(model: BaseChatModel, gate: Gate | None) -> BaseChatModel:
    """`model` with each generation holding one of `gate`'s slots (unchanged without a gate)."""
    return model if gate is None else GatedChatModel(inner=model, gate=gate)


def gate_grader(grader: Grader, gate: Gate | None) -> Grader:
    """The same grader with its LLM (if any) behind `gate`."""
    llm = grader.context.llm
    if gate is None or llm is None:
        return grader
    from agent.llm.client import LlmClient

    context = replace(grader.context, llm=LlmClient(llm.config, llm.http_client, slots=gate))
    return Grader(context, llm_configured=grader.llm_configured)
