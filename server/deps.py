"""Dependency aliases for routes (the FastAPI full-stack template's `deps.py`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from agent.grader import Grader
from server.grading import GradingService
from server.metrics import Metrics
from server.settings import Settings


def get_grader(request: Request) -> Grader:
    return request.app.state.grader


def get_service(request: Request) -> GradingService:
    return request.app.state.service


def get_settings(request: Request) -> Settings:
    return request.app.state.settings


def get_metrics(request: Request) -> Metrics:
    return request.app.state.metrics


GraderDep = Annotated[Grader, Depends(get_grader)]
ServiceDep = Annotated[GradingService, Depends(get_service)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
MetricsDep = Annotated[Metrics, Depends(get_metrics)]
