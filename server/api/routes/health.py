"""GET /healthz (the process answers) and GET /readyz (it can grade well right now)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import httpx
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from server.api.deps import SettingsDep
from server.core.settings import Settings
from server.core.worker_ready import ready_workers, run_dir

if TYPE_CHECKING:
    from agent.llm.client import LlmClient

router = APIRouter(tags=["health"])

Check = Literal["ok", "lazy", "failed", "busy", "unreachable", "not_configured", "starting"]


class Health(BaseModel):
    status: Literal["ok", "starting"]


class Readiness(BaseModel):
    status: Literal["ready", "not_ready"]
    checks: dict[str, Check]


@router.get(
    "/healthz",
    response_model=Health,
    responses={200: {"content": {"application/json": {"example": {"status": "ok"}}}}},
)
async def healthz(request: Request) -> dict[str, str]:
    """Alive: the lifespan ran and the grader is built."""
    return {"status": "ok" if getattr(request.app.state, "grader", None) else "starting"}


async def llm_check(llm: LlmClient | None, settings: Settings) -> Check:
    """ "ok" when the endpoint answered a grade lately (`STEPGRADE_READY_CACHE` seconds) or
    answers `/models` now, with any HTTP status; "busy" when it took the connection but had no
    answer in time (a server that serves one generation at a time, such as llama-cpp-python,
    answers `/models` only after it); "unreachable" when no connection could be made."""
    if llm is None:
        return "not_configured"
    if llm.config.replay_only or llm.answered_within(settings.ready_cache):
        return "ok"
    timeout = httpx.Timeout(settings.ready_timeout)
    try:
        async with httpx.AsyncClient(timeout=timeout) as client:
            await client.get(llm.config.base_url.rstrip("/") + "/models")
    except (httpx.ReadTimeout, httpx.WriteTimeout, httpx.PoolTimeout):
        return "busy"
    except httpx.HTTPError:
        return "unreachable"
    llm.answered()
    return "ok"


_READY_EXAMPLE = {
    "status": "ready",
    "checks": {"embedding_model": "ok", "answer_worker": "ok", "llm": "not_configured"},
}


@router.get(
    "/readyz",
    response_model=Readiness,
    responses={
        200: {"content": {"application/json": {"example": _READY_EXAMPLE}}},
        503: {"model": Readiness, "description": "A dependency is missing; `checks` says which."},
    },
)
async def readyz(request: Request, settings: SettingsDep) -> JSONResponse:
    """Ready: embedding model loaded (or lazy by configuration), LLM reachable (or busy) when
    configured, and with several workers, every worker warmed up."""
    state = request.app.state
    checks: dict[str, Check] = {
        "embedding_model": state.readiness.get("embedding_model", "failed"),
        "answer_worker": state.readiness.get("answer_worker", "failed"),
        "llm": await llm_check(state.grader.context.llm, settings),
    }
    if (shared := run_dir()) is not None:  # several workers: every one of them must be warm
        checks["workers"] = "ok" if ready_workers(shared) >= settings.workers else "starting"
    ready = all(v in ("ok", "lazy", "busy", "not_configured") for v in checks.values())
    body = Readiness(status="ready" if ready else "not_ready", checks=checks)
    return JSONResponse(status_code=200 if ready else 503, content=body.model_dump())
