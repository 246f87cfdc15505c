"""The one entry point the CLI, the service and the runner use: a GradeRequest in, a GradeReport out.

Grading is asynchronous all the way down (`agrade`); `grade` is the blocking door for the CLI
and scripts, running `agrade` on the grader's own event loop so that successive calls share one
loop and its kept-alive connections.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

from agent.context import Context
from agent.graph import build_graph
from agent.llm.records import LlmRun
from agent.state import InputState
from scoring.judge import ProblemMemory
from scoring.schema import GradeReport, GradeRequest


class LlmUnavailableError(RuntimeError):
    """`mode: llm` was asked for but no LLM endpoint is configured."""


class Grader:
    """Holds the compiled graph and the run context; build once, grade many."""

    def __init__(
        self, context: Context | None = None, *, llm_configured: bool | None = None
    ) -> None:
        self.context = context or Context()
        self.llm_configured = (
            self.context.llm is not None if llm_configured is None else llm_configured
        )
        self.graph = build_graph()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_lock = threading.Lock()

    @property
    def llm_budget(self) -> float | None:
        """Seconds of LLM time one grade may use (its deadline), when a model is configured."""
        return self.context.llm.config.budget if self.context.llm is not None else None

    def check_mode(self, request: GradeRequest) -> None:
        """Refuse mode 'llm' up front when no endpoint is configured, rather than degrade silently."""
        if request.mode == "llm" and not self.llm_configured:
            raise LlmUnavailableError(
                "mode 'llm' needs an OpenAI-compatible endpoint (STEPGRADE_LLM_BASE_URL and "
                "STEPGRADE_LLM_MODEL); none is configured. Use mode 'offline' or 'auto'."
            )

    def new_run(self, budget: float | None = None) -> LlmRun:
        """A grade's LLM run, its deadline `budget` seconds from now (default: the configured
        budget); call it on the event loop that will grade."""
        seconds = self.llm_budget if budget is None else budget
        if seconds is None:
            return LlmRun()
        return LlmRun(deadline=asyncio.get_running_loop().time() + seconds)

    async def agrade(
        self, request: GradeRequest, run: LlmRun | None = None, memory: ProblemMemory | None = None
    ) -> GradeReport:
        """Grade on the running event loop; `run` (from `new_run`) lets the caller set the
        deadline and read the LLM records even if the grade does not finish; `memory` is the
        caller's memory of the problem (left out when the request opts out)."""
        self.check_mode(request)
        start = time.perf_counter()
        context = replace(self.context, run=run or self.new_run())
        out = await self.graph.ainvoke(input_state(request, memory), context=context)
        return _stamp(out, start)

    def astream(
        self, request: GradeRequest, run: LlmRun | None = None, memory: ProblemMemory | None = None
    ) -> AsyncIterator[dict[str, Any]]:
        """The graph's node updates (`stream_mode="updates"`), the report in the last one."""
        self.check_mode(request)
        context = replace(self.context, run=run or self.new_run())
        return self.graph.astream(
            input_state(request, memory), context=context, stream_mode="updates"
        )

    def grade(self, request: GradeRequest, memory: ProblemMemory | None = None) -> GradeReport:
        """Blocking `agrade`, on the grader's event loop (a daemon thread, started once)."""
        return asyncio.run_coroutine_threadsafe(
            self.agrade(request, memory=memory), self._event_loop()
        ).result()

    def _event_loop(self) -> asyncio.AbstractEventLoop:
        with self._loop_lock:
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                threading.Thread(
                    target=self._loop.run_forever, name="stepgrade-grader", daemon=True
                ).start()
            return self._loop


def input_state(request: GradeRequest, memory: ProblemMemory | None) -> InputState:
    """The graph's input: the request, and the memory unless the request opts out of it."""
    return {"request": request, "memory": memory if request.memory and memory else None}


def _stamp(out: dict[str, Any], start: float) -> GradeReport:
    """Total time and every node's time (the last node's included) into the report's meta."""
    report: GradeReport = out["report"]
    elapsed = round((time.perf_counter() - start) * 1000.0, 3)
    meta = report.meta.model_copy(update={"elapsed_ms": elapsed, "node_ms": dict(out["node_ms"])})
    return report.model_copy(update={"meta": meta})
