"""Pure ASGI middleware: request ids, access logs and metrics, body-size limit, last-resort 500.

Pure ASGI (not `BaseHTTPMiddleware`) so Server-Sent Events stream through unbuffered.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Mapping

import anyio
from starlette.routing import Match
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from server.core.errors import error_body
from server.core.logs import request_id_var
from server.core.metrics import Metrics

log = logging.getLogger("stepgrade.access")
_SAFE_ID = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")
_HEADER = b"x-request-id"
_TIMING = b"server-timing"


async def _send_json(send: Send, status: int, body: Mapping[str, object], rid: str) -> None:
    data = json.dumps(body).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (_HEADER, rid.encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": data})


def _incoming_id(scope: Scope) -> str:
    """The caller's X-Request-ID when it is a sane token, else a fresh one."""
    for name, value in scope.get("headers", []):
        if name == _HEADER:
            text = value.decode("latin-1")
            if _SAFE_ID.match(text):
                return text
    return uuid.uuid4().hex


def _route_label(scope: Scope, arrived: Scope) -> str:
    """The route template a request matched, for metrics and logs; "unmatched" for none.

    FastAPI's API routes leave themselves in the scope; the routes Starlette serves directly
    (`/openapi.json`, `/docs`, the static mounts) do not, so they are matched here against the
    scope as it arrived (a mount rewrites the scope's paths on the way in).
    """
    path = getattr(scope.get("route"), "path", None)
    if path:
        return str(path)
    router = getattr(scope.get("app"), "router", None)
    for route in getattr(router, "routes", ()):
        match, _ = route.matches(arrived)
        if match is Match.FULL:
            return str(getattr(route, "path", "unmatched"))
    return "unmatched"


class RequestContextMiddleware:
    """Gives every response an `X-Request-ID`, logs one JSON access line, counts metrics.

    `Server-Timing: app;dur=<ms>` says how long the service held the request before answering,
    so a client can tell time spent in the service from time spent on the way to it.

    Also the last line of defence: an exception that escapes everything else becomes a JSON 500
    here (logged with its traceback server-side), never a traceback on the wire.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Give the request an id, log it and count it, whatever the route answers."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = _incoming_id(scope)
        token = request_id_var.set(rid)
        status = 500
        started = False
        start = time.perf_counter()

        async def send_with_id(message: Message) -> None:
            nonlocal status, started
            if message["type"] == "http.response.start":
                started = True
                status = message["status"]
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != _HEADER]
                timing = f"app;dur={(time.perf_counter() - start) * 1000.0:.1f}".encode()
                message = {
                    **message,
                    "headers": [*headers, (_HEADER, rid.encode()), (_TIMING, timing)],
                }
            await send(message)

        self.metrics.in_flight.inc()
        arrived = dict(scope)
        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            log.exception("unhandled error")
            if not started:
                status = 500
                await _send_json(
                    send,
                    500,
                    error_body("internal_error", "the grader failed on this request"),
                    rid,
                )
        finally:
            self.metrics.in_flight.dec()
            route = _route_label(scope, arrived)
            elapsed = time.perf_counter() - start
            method = scope.get("method", "")
            self.metrics.requests.labels(method=method, route=route, status=str(status)).inc()
            self.metrics.latency.labels(method=method, route=route).observe(elapsed)
            log.info(
                "request",
                extra={
                    "method": method,
                    "path": scope.get("path"),
                    "route": route,
                    "status": status,
                    "duration_ms": round(elapsed * 1000.0, 1),
                },
            )
            request_id_var.reset(token)


class BodyLimitMiddleware:
    """Answers 413 for bodies over `max_bytes`, counting the bytes actually received, and 408 for
    a body not received in `timeout` seconds.

    A declared Content-Length over the limit is refused before reading; otherwise the body is
    read up to the limit (chunked uploads included) and replayed to the app. A client that stops
    sending half-way would otherwise hold its connection (and a request slot) open for as long
    as it likes: the server has no read deadline of its own for a body.
    """

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float = 10.0) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def _too_slow(self, scope: Scope, send: Send) -> None:
        rid = request_id_var.get() or _incoming_id(scope)
        await _send_json(
            send,
            408,
            error_body(
                "body_timeout",
                f"the request body did not arrive within {self.timeout:g} s "
                "(STEPGRADE_BODY_TIMEOUT)",
            ),
            rid,
        )

    async def _too_large(self, scope: Scope, send: Send) -> None:
        rid = request_id_var.get() or _incoming_id(scope)
        await _send_json(
            send,
            413,
            error_body("body_too_large", f"the request body exceeds {self.max_bytes} bytes"),
            rid,
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass the request on, cutting it off with a 413 once its body passes the limit."""
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", []):
            if name == b"content-length" and value.isdigit() and int(value) > self.max_bytes:
                await self._too_large(scope, send)
                return
        chunks: list[bytes] = []
        size = 0
        with anyio.move_on_after(self.timeout) as deadline:
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return  # the client went away before sending its body
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_bytes:
                    await self._too_large(scope, send)
                    return
                chunks.append(chunk)
                if not message.get("more_body", False):
                    break
        if deadline.cancelled_caught:
            await self._too_slow(scope, send)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
