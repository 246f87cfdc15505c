"""The API router: every resource's routes, and nothing else, in the one router the app includes."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from server.api.main import api_router


def test_every_resources_operations_are_in_the_router():
    app = FastAPI()
    app.include_router(api_router)
    operations = {
        (path, method.upper())
        for path, methods in app.openapi()["paths"].items()
        for method in methods
    }
    assert operations == {
        ("/healthz", "GET"),
        ("/readyz", "GET"),
        ("/metrics", "GET"),
        ("/calibration", "GET"),
        ("/examples", "GET"),
        ("/grade", "POST"),
        ("/grade/batch", "POST"),
        ("/grade/stream", "POST"),
        ("/grades", "GET"),
        ("/grades/export", "GET"),
        ("/grades/{grade_id}", "GET"),
        ("/grades/{grade_id}/corrections", "POST"),
    }


def test_the_review_page_is_served_by_the_router():
    app = FastAPI()
    app.include_router(api_router)
    assert TestClient(app).get("/review").status_code == 200
