"""The pure ASGI middleware: a request id on every response, metrics per route template, a JSON
500 when everything else failed, and the body limit (413 by size, 408 by time)."""

from __future__ import annotations

import asyncio
import json

from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from server.core.metrics import Metrics
from server.core.middleware import BodyLimitMiddleware, RequestContextMiddleware
from tests.server.conftest import service


def app(metrics: Metrics, max_bytes: int = 64, timeout: float = 10.0) -> FastAPI:
    api = FastAPI()

    @api.get("/items/{item_id}")
    async def item(item_id: int) -> dict:
        return {"id": item_id}

    @api.post("/echo")
    async def echo(request: Request) -> dict:
        return {"size": len(await request.body())}

    @api.get("/crash")
    async def crash() -> dict:
        raise RuntimeError("boom")

    api.add_middleware(BodyLimitMiddleware, max_bytes=max_bytes, timeout=timeout)
    api.add_middleware(RequestContextMiddleware, metrics=metrics)
    return api


def count(metrics: Metrics, route: str, status: str, method: str = "GET") -> float:
    labels = {"method": method, "route": route, "status": status}
    return metrics.registry.get_sample_value("stepgrade_http_requests_total", labels) or 0.0


def test_a_safe_request_id_is_echoed_and_a_bad_one_replaced():
    client = TestClient(app(Metrics()))
    assert client.get("/items/1", headers={"X-Request-ID": "abc-1.2:3"}).headers[
        "x-request-id"
    ] == ("abc-1.2:3")
    replaced = client.get("/items/1", headers={"X-Request-ID": "bad id\twith spaces"})
    assert replaced.headers["x-request-id"] != "bad id\twith spaces"
    assert len(replaced.headers["x-request-id"]) == 32
    assert replaced.headers["server-timing"].startswith("app;dur=")


def test_requests_are_counted_by_route_template_not_by_path():
    metrics = Metrics()
    client = TestClient(app(metrics))
    client.get("/items/1")
    client.get("/items/2")
    client.get("/nowhere")
    assert count(metrics, "/items/{item_id}", "200") == 2
    assert count(metrics, "unmatched", "404") == 1
    assert metrics.registry.get_sample_value("stepgrade_http_in_flight") == 0


def test_an_exception_that_escapes_everything_is_a_json_500_with_the_request_id():
    metrics = Metrics()
    client = TestClient(app(metrics), raise_server_exceptions=False)
    answer = client.get("/crash", headers={"X-Request-ID": "r1"})
    assert answer.status_code == 500 and answer.headers["x-request-id"] == "r1"
    assert answer.json()["error"]["code"] == "internal_error" and "boom" not in answer.text
    assert count(metrics, "/crash", "500") == 1


def test_a_body_over_the_limit_is_a_413_declared_or_not():
    client = TestClient(app(Metrics(), max_bytes=10))
    assert client.post("/echo", content=b"x" * 10).json() == {"size": 10}
    too_big = client.post("/echo", content=b"x" * 11)
    assert too_big.status_code == 413 and too_big.json()["error"]["code"] == "body_too_large"

    def chunks():  # no Content-Length: counted as it arrives
        yield b"x" * 6
        yield b"x" * 6

    chunked = client.post("/echo", content=chunks())
    assert chunked.status_code == 413


def test_get_requests_pass_without_reading_a_body():
    client = TestClient(app(Metrics(), max_bytes=0))
    assert client.get("/items/3").json() == {"id": 3}


def test_a_half_sent_body_gets_a_408_once_its_time_is_up():
    """A client that sends part of its body and stops: answered 408 at the body deadline, and the
    app behind never runs."""
    sent: list[dict] = []
    reached = []

    async def app(scope, receive, send):  # pragma: no cover - must not be reached
        reached.append(scope)

    async def receive():
        if not sent and not receive.gave:  # type: ignore[attr-defined]
            receive.gave = True  # type: ignore[attr-defined]
            return {"type": "http.request", "body": b'{"problem": ', "more_body": True}
        await asyncio.sleep(3600)  # the rest never comes

    receive.gave = False  # type: ignore[attr-defined]

    async def send(message):
        sent.append(message)

    middleware = BodyLimitMiddleware(app, max_bytes=1000, timeout=0.2)
    scope = {"type": "http", "method": "POST", "path": "/grade", "headers": []}
    asyncio.run(asyncio.wait_for(middleware(scope, receive, send), timeout=10))
    assert not reached
    assert sent[0]["status"] == 408
    body = json.loads(sent[1]["body"])
    assert (
        body["error"]["code"] == "body_timeout"
        and "STEPGRADE_BODY_TIMEOUT" in body["error"]["message"]
    )


def test_a_whole_body_in_time_reaches_the_app():
    seen = []

    async def app(scope, receive, send):
        seen.append(await receive())

    chunks = iter(
        [
            {"type": "http.request", "body": b"ab", "more_body": True},
            {"type": "http.request", "body": b"cd", "more_body": False},
        ]
    )

    async def receive():
        return next(chunks)

    async def send(message):
        raise AssertionError("nothing is answered by the middleware")

    middleware = BodyLimitMiddleware(app, max_bytes=1000, timeout=5)
    asyncio.run(middleware({"type": "http", "method": "POST", "headers": []}, receive, send))
    assert seen == [{"type": "http.request", "body": b"abcd", "more_body": False}]


def test_a_half_sent_upload_is_answered_408_by_a_running_server():
    """Over a real socket: headers and part of the body, then nothing. uvicorn hands the request
    to the app at once; the app answers 408 at the body deadline and the connection closes."""
    import socket
    import threading
    import time
    from dataclasses import replace

    import uvicorn

    from agent.build import make_grader
    from agent.grader import Grader
    from server.main import create_app
    from tests.server.conftest import bag_of_words, settings_for

    settings = settings_for(body_timeout=0.5, store="off", preload_answer_worker=False)
    grader = Grader(replace(make_grader(settings).context, embedder=bag_of_words))
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    port = holder.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(settings, grader=grader), log_config=None, log_level="warning")
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [holder]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive()
            time.sleep(0.05)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            client.sendall(
                b"POST /grade HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b'Content-Length: 400\r\n\r\n{"problem": "2+2", '
            )
            answer = b""
            while chunk := client.recv(4096):  # a hang would raise at the socket's time-out
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
        assert b'"body_timeout"' in answer  # and the server closed the connection
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        holder.close()


def test_body_limit_by_content_length_and_by_streamed_bytes():
    with service(max_body_bytes=300_000) as client:
        _body_limit(client)


def _body_limit(client):
    big = {"problem": "p", "solution": "x" * 400_000}
    r = client.post("/grade", json=big)
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    assert "x-request-id" in r.headers

    def chunks():  # no Content-Length: sent chunked, must still be counted
        for _ in range(40):
            yield b"x" * 10_000

    r = client.post("/grade", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413
