"""Dependency aliases for routes (the FastAPI full-stack template's `deps.py`).

Those that only read the app's state are coroutines: FastAPI runs a plain function dependency in
a worker thread, a thread hop each per request. `get_session` opens a database session, so it
stays a plain generator there.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from agent.grader import Grader
from server.core.errors import ApiError
from server.core.metrics import Metrics
from server.core.security import get_owner
from server.core.settings import Settings
from server.services.grading import GradingService
from server.store.engine import GradeStore
from server.store.recording import Recorder


async def get_grader(request: Request) -> Grader:
    """The process's grader, built once at start-up."""
    return request.app.state.grader


async def get_service(request: Request) -> GradingService:
    """The grading service: limits, deadline and the offline fallback around the grader."""
    return request.app.state.service


async def get_settings(request: Request) -> Settings:
    """The settings the service started with."""
    return request.app.state.settings


async def get_metrics(request: Request) -> Metrics:
    """The Prometheus metrics of this process."""
    return request.app.state.metrics


GraderDep = Annotated[Grader, Depends(get_grader)]
ServiceDep = Annotated[GradingService, Depends(get_service)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
MetricsDep = Annotated[Metrics, Depends(get_metrics)]


async def get_store(request: Request) -> GradeStore:
    """The grade store; 503 `store_off` when the service keeps no grades."""
    store: GradeStore | None = request.app.state.store
    if store is None:
        raise ApiError(503, "store_off", "this service keeps no grades (STEPGRADE_STORE=off)")
    return store


StoreDep = Annotated[GradeStore, Depends(get_store)]


def get_session(store: StoreDep) -> Iterator[Session]:
    """A database session for one request, closed after it."""
    with store.session() as session:
        yield session


OwnerDep = Annotated[str, Depends(get_owner)]


async def get_recorder(request: Request, owner: OwnerDep) -> Recorder:
    """What stores a finished grade for the caller, before the answer leaves."""
    calibration = request.app.state.settings.calibration
    return Recorder(request.app.state.store, owner, calibration.name if calibration else None)


SessionDep = Annotated[Session, Depends(get_session)]
RecorderDep = Annotated[Recorder, Depends(get_recorder)]
