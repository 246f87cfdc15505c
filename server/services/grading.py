"""Grading under the service's rules: global concurrency limit, per-request deadline, metrics.

The graph runs with `ainvoke` on the event loop; a `CapacityLimiter` bounds how many grades run
at once. An LLM grade has its own deadline inside the request's (`STEPGRADE_LLM_BUDGET`, cut to
leave `STEPGRADE_OFFLINE_FALLBACK_BUDGET` seconds): there, its in-flight requests are cancelled
and the graph finishes with the offline twins (`meta.degraded`, and why, per operation). A grade
that fails outright is graded offline in the time left, and its `meta` still says what happened
(mode llm, degraded, the requests made, the wall-clock time). `/grade` and `/grade/stream`
share all of this; past the request deadline with nothing to return the answer is a 504.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, cast

import anyio

from agent.grader import Grader, LlmUnavailableError
from agent.llm.records import LlmRun
from agent.review import with_review
from scoring.judge import ProblemMemory
from scoring.schema import GradeReport, GradeRequest
from server.core.errors import ApiError
from server.core.metrics import Metrics
from server.core.settings import Settings
from server.schemas import BatchItem, ErrorDetail, RejectedItem, served
from server.services.events import StreamCollector

log = logging.getLogger("stepgrade.grading")


def _deadline_error(seconds: float) -> ApiError:
    return ApiError(
        504,
        "deadline_exceeded",
        f"grading did not finish within the {seconds:g} s request deadline "
        "and no report could be produced; retry later or with a shorter solution",
    )


def _error_event(err: ApiError) -> tuple[str, dict[str, Any]]:
    return "error", {"code": err.code, "message": err.message, "field": err.field}


class GradingService:
    """One per app (built in the lifespan): the grader plus the limits around it."""

    def __init__(self, grader: Grader, settings: Settings, metrics: Metrics) -> None:
        self.grader = grader
        self.settings = settings
        self.metrics = metrics
        self.limiter = anyio.CapacityLimiter(settings.max_concurrency)
        self.seconds = settings.request_seconds
        self.llm_budget = settings.service_llm_budget
        if grader.llm_configured and self.llm_budget < settings.llm_budget:
            log.warning(
                "the LLM budget is cut to fit the request deadline",
                extra={"llm_budget_s": self.llm_budget, "request_timeout_s": self.seconds},
            )

    def uses_llm(self, request: GradeRequest) -> bool:
        """Whether this request is graded with the model (not offline, and one is configured)."""
        return request.mode != "offline" and self.grader.llm_configured

    def check_mode(self, request: GradeRequest) -> None:
        """Refuse a request for a mode this service cannot grade in (4xx, before any work)."""
        self.grader.check_mode(request)

    def _new_run(self, request: GradeRequest) -> LlmRun:
        return self.grader.new_run(self.llm_budget) if self.uses_llm(request) else LlmRun()

    async def grade(
        self, request: GradeRequest, endpoint: str = "grade", memory: ProblemMemory | None = None
    ) -> GradeReport:
        """One grade under the global limit and the deadline, against the caller's `memory` of
        the problem; a failing LLM grade falls back offline."""
        self.check_mode(request)
        start, run = time.perf_counter(), self._new_run(request)
        try:
            with anyio.fail_after(self.seconds):
                async with self.limiter:
                    report = await self.grader.agrade(request, run, memory=memory)
        except TimeoutError:
            self.metrics.failures.labels(code="deadline_exceeded").inc()
            raise _deadline_error(self.seconds) from None
        except (ApiError, LlmUnavailableError):
            raise
        except Exception as err:  # noqa: BLE001 - logged and graded offline by the fallback
            report = await self._offline_fallback(request, run, start, err, memory)
        self.metrics.record_report(report, endpoint)
        return report

    async def _offline_fallback(
        self,
        request: GradeRequest,
        run: LlmRun,
        start: float,
        err: Exception,
        memory: ProblemMemory | None,
    ) -> GradeReport:
        """An LLM grade that failed outright, graded offline in the time left; `meta` tells
        the whole story (mode llm, degraded, the requests made, the wall-clock time)."""
        if not self.uses_llm(request):
            raise err
        # An LLM client failure the graph did not absorb (e.g. a non-JSON 200 from a proxy):
        # the item still gets an offline grade that says so, never a 500.
        log.exception("llm grade failed; grading offline", exc_info=err)
        offline = request.model_copy(update={"mode": "offline"})
        left = self.seconds - (time.perf_counter() - start)
        try:
            with anyio.fail_after(max(left, 0.001)):
                async with self.limiter:
                    report = await self.grader.agrade(offline, memory=memory)
        except TimeoutError:
            self.metrics.failures.labels(code="deadline_exceeded").inc()
            raise _deadline_error(self.seconds) from None
        warning = f"the LLM grade failed ({type(err).__name__}: {err}); graded offline instead"
        meta = report.meta.model_copy(
            update={
                "mode": "llm",
                "degraded": True,
                **run.meta_fields(),
                "elapsed_ms": round((time.perf_counter() - start) * 1000.0, 3),
                "warnings": [*report.meta.warnings, warning[:500]],
                "versions": {**report.meta.versions, "model": self.grader.context.llm_model},
            }
        )
        return with_review(
            report.model_copy(update={"meta": meta}), self.grader.context.interval_model
        )

    async def grade_many(
        self,
        requests: list[GradeRequest | RejectedItem],
        memories: list[ProblemMemory | None] | None = None,
    ) -> list[BatchItem]:
        """All items at once (each under the global limit, against its memory), in order;
        failures stay per item."""
        known = memories if memories is not None else [None] * len(requests)

        async def one(index: int, request: GradeRequest | RejectedItem) -> BatchItem:
            if isinstance(request, RejectedItem):
                detail = request.detail(index)
                self.metrics.failures.labels(code=detail.code).inc()
                return BatchItem(index=index, error=detail)
            try:
                return BatchItem(
                    index=index, report=served(await self.grade(request, "batch", known[index]))
                )
            except ApiError as err:
                detail = ErrorDetail(code=err.code, message=err.message, field=err.field)
            except LlmUnavailableError as err:
                detail = ErrorDetail(code="llm_unavailable", message=str(err), field="mode")
            except Exception:
                log.exception("batch item failed", extra={"item": index})
                detail = ErrorDetail(
                    code="internal_error", message="the grader failed on this item"
                )
            self.metrics.failures.labels(code=detail.code).inc()
            return BatchItem(index=index, error=detail)

        return list(await asyncio.gather(*(one(i, r) for i, r in enumerate(requests))))

    async def stream(
        self, request: GradeRequest, memory: ProblemMemory | None = None
    ) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        """(event, data) per finished graph node, then the report, or an error with a reason;
        falls back like `grade` does."""
        start, run = time.perf_counter(), self._new_run(request)
        deadline = anyio.current_time() + self.seconds
        collector = StreamCollector()
        yield "accepted", {"mode": "llm" if self.uses_llm(request) else "offline"}
        failure: Exception | None = None
        try:
            async with self.limiter:
                # an async generator (closed below), whatever agent's annotation says
                updates = cast(
                    AsyncGenerator[dict[str, Any], None], self.grader.astream(request, run, memory)
                )
                try:
                    while True:
                        left = deadline - anyio.current_time()
                        try:
                            chunk = await asyncio.wait_for(anext(updates), max(left, 0.001))
                        except StopAsyncIteration:
                            break
                        for event in collector.add(chunk):
                            yield event
                finally:
                    await updates.aclose()
            report = collector.report()
        except TimeoutError:
            self.metrics.failures.labels(code="deadline_exceeded").inc()
            yield _error_event(_deadline_error(self.seconds))
            return
        except Exception as err:  # noqa: BLE001 - logged and graded offline by the fallback
            failure = err
        if failure is not None:
            try:
                report = await self._offline_fallback(request, run, start, failure, memory)
            except ApiError as err:
                yield _error_event(err)
                return
            except Exception as err:
                log.exception("stream failed")
                self.metrics.failures.labels(code="internal_error").inc()
                yield (
                    "error",
                    {
                        "code": "internal_error",
                        "field": None,
                        "message": f"the grader failed on this request ({type(err).__name__})",
                    },
                )
                return
        self.metrics.record_report(report, "stream")
        yield "report", report.model_dump(mode="json")
