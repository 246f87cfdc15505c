"""Assembles the FastAPI app: lifespan, routers, error handlers. Nothing else lives here."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from scoring.embed import load_model
from server.errors import install_error_handlers
from server.factory import make_grader
from server.routes import grade, health
from server.settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        grader = make_grader(settings)
        if settings.preload_embedding:
            await run_in_threadpool(load_model, grader.context.embed.model)
        app.state.settings = settings
        app.state.grader = grader
        yield

    app = FastAPI(
        title="stepgrade",
        summary="Grades step-by-step math solutions on their process.",
        version="0.1.0",
        lifespan=lifespan,
    )
    install_error_handlers(app)
    app.include_router(health.router)
    app.include_router(grade.router)
    return app
