"""Errors as JSON `{"error": {"code", "message", "field"}}`; no traceback ever leaves the server."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from agent.grader import LlmUnavailableError

log = logging.getLogger("stepgrade.server")


class ApiError(Exception):
    """An error the service answers on purpose: status, stable code, message, offending field."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field
        self.headers = headers


def error_body(
    code: str, message: str, field: str | None = None
) -> dict[str, dict[str, str | None]]:
    """The one JSON shape of every error the service answers."""
    return {"error": {"code": code, "message": message, "field": field}}


def _field_name(loc: tuple[object, ...]) -> str | None:
    parts = [str(p) for p in loc if p not in ("body",)]
    return ".".join(parts) or None


def _body_error(first: Mapping[str, Any]) -> dict[str, dict[str, str | None]] | None:
    """The body as a whole is wrong (none sent, or not JSON): say that, naming `body`.

    FastAPI reports these as an error of a field: a missing body as "Field required" at `body`,
    and a JSON syntax error at `body.<character offset>`, which reads as a field named by a number.
    """
    loc, kind = tuple(first.get("loc", ())), first.get("type")
    if kind == "missing" and loc == ("body",):
        return error_body(
            "empty_body",
            "the request has no body: send a JSON object (Content-Type: application/json)",
            "body",
        )
    if kind == "json_invalid":
        at = loc[1] if len(loc) > 1 else "?"
        why = (first.get("ctx") or {}).get("error", "not JSON")
        return error_body(
            "invalid_json", f"the request body is not valid JSON ({why} at character {at})", "body"
        )
    return None


_CODES = {400: "invalid_body", 401: "unauthorized", 404: "not_found", 405: "method_not_allowed"}


def install_error_handlers(app: FastAPI) -> None:
    """Route every error (validation, API, unexpected) through `error_body`, never a traceback."""

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        body_error = _body_error(first)
        if body_error is not None:
            return JSONResponse(status_code=422, content=body_error)
        field = _field_name(tuple(first.get("loc", ())))
        message = str(first.get("msg", "invalid request"))
        return JSONResponse(
            status_code=422,
            content=error_body(
                "invalid_request", f"{field}: {message}" if field else message, field
            ),
        )

    @app.exception_handler(ApiError)
    async def _api(_: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(
            status_code=exc.status,
            headers=exc.headers,
            content=error_body(exc.code, exc.message, exc.field),
        )

    @app.exception_handler(LlmUnavailableError)
    async def _no_llm(_: Request, exc: LlmUnavailableError) -> JSONResponse:
        return JSONResponse(
            status_code=422, content=error_body("llm_unavailable", str(exc), "mode")
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _CODES.get(exc.status_code, f"http_{exc.status_code}")
        return JSONResponse(status_code=exc.status_code, content=error_body(code, str(exc.detail)))

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return JSONResponse(
            status_code=500,
            content=error_body("internal_error", "the grader failed on this request"),
        )
