"""Every route of the service, one router per resource, in one router the app includes."""

from __future__ import annotations

from fastapi import APIRouter

from server.api.routes import batch, calibration, grade, grades, health, metrics, review, stream

api_router = APIRouter()
for module in (health, calibration, metrics, grade, batch, stream, grades, review):
    api_router.include_router(module.router)
