"""Grading under the service's rules: global concurrency limit, per-request deadline, metrics.

The graph runs with `ainvoke`: LLM calls are awaited on the event loop through the async client,
CPU-bound nodes (sympy, torch) run in worker threads; a `CapacityLimiter` bounds how many grades
run at once. When an LLM grade runs out of time, the remaining budget grades offline and the
report says `degraded: true`; only when even that cannot finish does the caller get a 504.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio

from agent.grader import Grader, LlmUnavailableError
from scoring.schema import GradeReport, GradeRequest
from server.errors import ApiError
from server.events import StreamCollector
from server.metrics import Metrics
from server.schemas import BatchItem, ErrorDetail
from server.settings import Settings

log = logging.getLogger("stepgrade.grading")


def _deadline_error(seconds: float) -> ApiError:
    return ApiError(504, "deadline_exceeded",
                    f"grading did not finish within the {seconds:g} s request deadline "
                    "and no report could be produced; retry later or with a shorter solution")


class GradingService:
    """One per app (built in the lifespan): the grader plus the limits around it."""

    def __init__(self, grader: Grader, settings: Settings, metrics: Metrics) -> None:
        self.grader = grader
        self.settings = settings
        self.metrics = metrics
        self.limiter = anyio.CapacityLimiter(settings.max_concurrency)

    def uses_llm(self, request: GradeRequest) -> bool:
        return request.mode != "offline" and self.grader.llm_configured

    def check_mode(self, request: GradeRequest) -> None:
        if request.mode == "llm" and not self.grader.llm_configured:
            raise LlmUnavailableError(
                "mode 'llm' needs an OpenAI-compatible endpoint (STEPGRADE_LLM_BASE_URL and "
                "STEPGRADE_LLM_MODEL); none is configured. Use mode 'offline' or 'auto'."
            )

    async def _run(self, request: GradeRequest, seconds: float) -> GradeReport:
        # At the deadline the graph is cancelled and we answer; a node already running in a
        # worker thread finishes there on its own.
        with anyio.fail_after(seconds):
            async with self.limiter:
                return await self.grader.agrade(request)

    def _budgets(self, request: GradeRequest) -> tuple[float, float]:
        """(time for the requested grade, time kept back for an offline fallback)."""
        total = self.settings.request_timeout
        if not self.uses_llm(request):
            return total, 0.0
        reserve = min(self.settings.offline_fallback_budget, total / 2)
        return total - reserve, reserve

    async def grade(self, request: GradeRequest, endpoint: str = "grade") -> GradeReport:
        self.check_mode(request)
        first, reserve = self._budgets(request)
        try:
            report = await self._run(request, first)
        except TimeoutError:
            if not reserve:
                self.metrics.failures.labels(code="deadline_exceeded").inc()
                raise _deadline_error(self.settings.request_timeout) from None
            log.warning("llm grade past its budget; grading offline", extra={"budget_s": first})
            report = await self._offline_fallback(
                request, reserve, f"the LLM grade did not finish within {first:g} s of the "
                "request deadline; graded offline instead")
        except (ApiError, LlmUnavailableError):
            raise
        except Exception as err:
            if not reserve:
                raise
            # An LLM client failure the graph did not absorb (e.g. a non-JSON 200 from a proxy):
            # the item still gets an offline grade that says so, never a 500.
            log.exception("llm grade failed; grading offline")
            report = await self._offline_fallback(
                request, reserve, f"the LLM grade failed ({type(err).__name__}); "
                "graded offline instead")
        self.metrics.record_report(report, endpoint)
        return report

    async def _offline_fallback(self, request: GradeRequest, reserve: float,
                                warning: str) -> GradeReport:
        offline = request.model_copy(update={"mode": "offline"})
        try:
            report = await self._run(offline, reserve)
        except TimeoutError:
            self.metrics.failures.labels(code="deadline_exceeded").inc()
            raise _deadline_error(self.settings.request_timeout) from None
        meta = report.meta.model_copy(
            update={"degraded": True, "warnings": [*report.meta.warnings, warning]})
        return report.model_copy(update={"meta": meta})

    async def grade_many(self, requests: list[GradeRequest]) -> list[BatchItem]:
        """All items at once (each under the global limit), in order; failures stay per item."""

        async def one(index: int, request: GradeRequest) -> BatchItem:
            try:
                return BatchItem(index=index, report=await self.grade(request, "batch"))
            except ApiError as err:
                detail = ErrorDetail(code=err.code, message=err.message, field=err.field)
            except LlmUnavailableError as err:
                detail = ErrorDetail(code="llm_unavailable", message=str(err), field="mode")
            except Exception:
                log.exception("batch item failed", extra={"item": index})
                detail = ErrorDetail(code="internal_error",
                                     message="the grader failed on this item")
            self.metrics.failures.labels(code=detail.code).inc()
            return BatchItem(index=index, error=detail)

        return list(await asyncio.gather(*(one(i, r) for i, r in enumerate(requests))))

    async def stream(self, request: GradeRequest) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        """(event, data) per finished graph node, then the report; errors become an event too."""
        deadline = anyio.current_time() + self.settings.request_timeout
        collector = StreamCollector()
        yield "accepted", {"mode": "llm" if self.uses_llm(request) else "offline"}
        async with self.limiter:
            updates = self.grader.graph.astream(
                {"request": request}, context=self.grader.context, stream_mode="updates")
            try:
                while True:
                    left = deadline - anyio.current_time()
                    try:
                        chunk = await asyncio.wait_for(anext(updates), max(left, 0.001))
                    except StopAsyncIteration:
                        break
                    for event in collector.add(chunk):
                        yield event
            except TimeoutError:
                self.metrics.failures.labels(code="deadline_exceeded").inc()
                err = _deadline_error(self.settings.request_timeout)
                yield "error", {"code": err.code, "message": err.message, "field": None}
                return
            except Exception:
                log.exception("stream failed")
                self.metrics.failures.labels(code="internal_error").inc()
                yield "error", {"code": "internal_error",
                                "message": "the grader failed on this request", "field": None}
                return
            finally:
                await updates.aclose()
        try:
            report = collector.report()
        except RuntimeError:
            log.exception("stream ended without a report")
            yield "error", {"code": "internal_error",
                            "message": "the grader failed on this request", "field": None}
            return
        self.metrics.record_report(report, "stream")
        yield "report", report.model_dump(mode="json")
