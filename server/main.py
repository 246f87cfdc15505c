"""Assembles the FastAPI app: lifespan, middleware, routers, error handlers. Nothing else lives here."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi_offline import FastAPIOffline

from agent.grader import Grader
from server.api.main import api_router
from server.core.errors import install_error_handlers
from server.core.logs import configure_logging
from server.core.metrics import Metrics
from server.core.middleware import BodyLimitMiddleware, RequestContextMiddleware
from server.core.settings import Settings
from server.lifespan import make_lifespan


def create_app(settings: Settings | None = None, grader: Grader | None = None) -> FastAPI:
    """The service; `grader` replaces the one built from settings (tests inject fakes)."""
    settings = settings or Settings()
    if settings.log_json:
        configure_logging(settings.log_level)
    metrics = Metrics()
    # /docs and /redoc from Swagger UI and ReDoc files installed with the service
    # (fastapi-offline), not from a CDN: the API docs work on a network with no internet.
    app = FastAPIOffline(
        static_url="/docs-assets",
        title="stepgrade",
        summary="Grades step-by-step math solutions on their process.",
        version="0.1.0",
        lifespan=make_lifespan(settings, grader, metrics),
    )
    app.state.metrics = metrics
    install_error_handlers(app)
    app.add_middleware(
        BodyLimitMiddleware, max_bytes=settings.max_body_bytes, timeout=settings.body_timeout
    )
    app.add_middleware(RequestContextMiddleware, metrics=metrics)  # outermost: sees all
    app.include_router(api_router)
    return app
