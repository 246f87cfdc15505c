"""What the service does at start-up and at shutdown, in order.

Start-up builds the grader and the grading service, warms them up, opens the grade store (and
keeps it pruned), tunes the process, then tells the other workers' `/readyz` this one is
ready; shutdown undoes it in reverse.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

import anyio
from fastapi import FastAPI

from agent.build import make_grader
from agent.grader import Grader
from server.core.metrics import Metrics
from server.core.runtime import size_graph_executor, tune_collector
from server.core.settings import Settings
from server.core.worker_ready import mark_gone, mark_ready, run_dir
from server.services.grading import GradingService
from server.services.warmup import warm_up
from server.store.lifecycle import keep_pruning, prune, start_store, warn_hidden_grades

log = logging.getLogger("stepgrade.server")

Lifespan = Callable[[FastAPI], AbstractAsyncContextManager[None]]


def make_lifespan(settings: Settings, grader: Grader | None, metrics: Metrics) -> Lifespan:
    """The app's lifespan; `grader` replaces the one built from settings (tests inject fakes)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        size_graph_executor(settings.max_concurrency)
        built = grader or make_grader(settings)
        app.state.settings = settings
        app.state.grader = built
        app.state.service = GradingService(built, settings, metrics)
        app.state.readiness = await warm_up(built, settings)
        app.state.store = store = await start_store(settings)
        if store is not None and settings.api_keys:
            await anyio.to_thread.run_sync(warn_hidden_grades, store)
        pruning = None
        if store is not None and settings.retention_days is not None:
            await anyio.to_thread.run_sync(prune, store, settings.retention_days)
            pruning = asyncio.create_task(keep_pruning(store, settings.retention_days))
        tune_collector()
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

    return lifespan
