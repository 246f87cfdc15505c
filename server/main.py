"""Assembles the FastAPI app: lifespan, middleware, routers, error handlers. Nothing else lives here."""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager

import anyio
from fastapi import FastAPI
from fastapi_offline import FastAPIOffline

from agent.build import make_grader
from agent.grader import Grader
from server.errors import install_error_handlers
from server.grading import GradingService
from server.logs import configure_logging
from server.metrics import Metrics
from server.middleware import BodyLimitMiddleware, RequestContextMiddleware
from server.routes import batch, calibration, grade, grades, health, metrics, review, stream
from server.settings import Settings
from server.store.lifecycle import keep_pruning, prune, start_store, warn_hidden_grades
from server.warmup import warm_up
from server.worker_ready import mark_gone, mark_ready, run_dir

log = logging.getLogger("stepgrade.server")

YOUNG_GC_THRESHOLD = 20_000  # allocations between collections of the youngest generation


def create_app(settings: Settings | None = None, grader: Grader | None = None) -> FastAPI:
    """The service; `grader` replaces the one built from settings (tests inject fakes)."""
    settings = settings or Settings()
    if settings.log_json:
        configure_logging(settings.log_level)
    app_metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # Streaming runs the graph's synchronous nodes on the loop's default executor: size it
        # for the concurrency limit (x3: parallel branches) instead of Python's cpu + 4.
        executor = ThreadPoolExecutor(max_workers=3 * settings.max_concurrency,
                                      thread_name_prefix="stepgrade-graph")
        asyncio.get_running_loop().set_default_executor(executor)
        built = grader or make_grader(settings)
        app.state.settings = settings
        app.state.grader = built
        app.state.service = GradingService(built, settings, app_metrics)
        app.state.readiness = await warm_up(built, settings)
        app.state.store = store = await start_store(settings)
        if store is not None and settings.api_keys:
            await anyio.to_thread.run_sync(warn_hidden_grades, store)
        pruning = None
        if store is not None and settings.retention_days is not None:
            await anyio.to_thread.run_sync(prune, store, settings.retention_days)
            pruning = asyncio.create_task(keep_pruning(store, settings.retention_days))
        # What start-up loaded (torch, the embedding model, the libraries: ~600k objects) lives as
        # long as the process: out of the cyclic collector's reach, its full collections stop
        # walking it, which saves CPU on every LLM-mode grade under load.
        gc.collect()
        gc.freeze()
        # A grade allocates many short-lived objects (LangChain, the SDK, pydantic): with the
        # default threshold of 700 the young generation was collected about twice per LLM-mode
        # grade, 1.2 ms of CPU per grade in collections; at 20,000 it is 0.3 ms, the pause of
        # one collection a few milliseconds (measured here by `gc.callbacks`, grading the
        # bundled arithmetic_slip in LLM mode in one process against the fake endpoint).
        gc.set_threshold(YOUNG_GC_THRESHOLD, *gc.get_threshold()[1:])
        log.info("ready", extra={"checks": app.state.readiness, "llm": built.llm_configured})
        shared = run_dir()
        if shared is not None:  # one of several workers: tell the others' /readyz
            mark_ready(shared)
        try:
            yield
        finally:
            if shared is not None:
                mark_gone(shared)
            if pruning is not None:
                pruning.cancel()
            if store is not None:
                store.close()

    # /docs and /redoc from Swagger UI and ReDoc files installed with the service
    # (fastapi-offline), not from a CDN: the API docs work on a network with no internet.
    app = FastAPIOffline(
        static_url="/docs-assets",
        title="stepgrade",
        summary="Grades step-by-step math solutions on their process.",
        version="0.1.0",
        lifespan=lifespan,
    )
    app.state.metrics = app_metrics
    install_error_handlers(app)
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes,
                       timeout=settings.body_timeout)
    app.add_middleware(RequestContextMiddleware, metrics=app_metrics)  # outermost: sees all
    for module in (health, calibration, metrics, grade, batch, stream, grades, review):
        app.include_router(module.router)
    return app
