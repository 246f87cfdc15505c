"""GET /healthz: the process is alive and the grader is built."""

from __future__ import annotations

from fastapi import APIRouter, Request

router = APIRouter(tags=["health"])


@router.get("/healthz")
async def healthz(request: Request) -> dict[str, str]:
    return {"status": "ok" if getattr(request.app.state, "grader", None) else "starting"}
