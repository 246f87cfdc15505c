"""The one entry point the CLI, the service and the runner use: a GradeRequest in, a GradeReport out."""

from __future__ import annotations

import time
from typing import Any

from agent.context import Context
from agent.graph import build_graph
from scoring.schema import GradeReport, GradeRequest


class LlmUnavailableError(RuntimeError):
    """`mode: llm` was asked for but no LLM endpoint is configured."""


class Grader:
    """Holds the compiled graph and the run context; build once, grade many."""

    def __init__(self, context: Context | None = None, *, llm_configured: bool | None = None) -> None:
        self.context = context or Context()
        self.llm_configured = self.context.llm is not None if llm_configured is None else llm_configured
        self.graph = build_graph()

    def _check_mode(self, request: GradeRequest) -> None:
        if request.mode == "llm" and not self.llm_configured:
            raise LlmUnavailableError(
                "mode 'llm' needs an OpenAI-compatible endpoint (STEPGRADE_LLM_BASE_URL and "
                "STEPGRADE_LLM_MODEL); none is configured. Use mode 'offline' or 'auto'."
            )

    def grade(self, request: GradeRequest) -> GradeReport:
        self._check_mode(request)
        start = time.perf_counter()
        out = self.graph.invoke({"request": request}, context=self.context)
        return _stamp(out, start)

    async def agrade(self, request: GradeRequest) -> GradeReport:
        self._check_mode(request)
        start = time.perf_counter()
        out = await self.graph.ainvoke({"request": request}, context=self.context)
        return _stamp(out, start)


def _stamp(out: dict[str, Any], start: float) -> GradeReport:
    """Total time and every node's time (the last node's included) into the report's meta."""
    report: GradeReport = out["report"]
    elapsed = round((time.perf_counter() - start) * 1000.0, 3)
    meta = report.meta.model_copy(update={"elapsed_ms": elapsed, "node_ms": dict(out["node_ms"])})
    return report.model_copy(update={"meta": meta})
