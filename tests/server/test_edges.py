"""The service's edges: a bad batch item, a body that is missing, not JSON or never finished, the
routes Starlette serves in /metrics, and the terminal table's signs."""

from __future__ import annotations

import asyncio
import json

import pytest

from example_requests import ARITHMETIC_SLIP, GIVEN_STEPS
from scoring.schema import GradeReport
from server.core.middleware import BodyLimitMiddleware
from server.pretty import format_report

from .conftest import service


@pytest.fixture(scope="module")
def client():
    with service(batch_max_items=8) as c:
        yield c


def test_a_batch_item_of_the_wrong_type_fails_only_itself(client):
    wrong_type = {**ARITHMETIC_SLIP, "solution": 5}
    r = client.post("/grade/batch", json={"items": [GIVEN_STEPS, ARITHMETIC_SLIP, 7, wrong_type]})
    assert r.status_code == 200
    body = r.json()
    assert body["succeeded"] == 2 and body["failed"] == 2
    assert [x["index"] for x in body["results"]] == [0, 1, 2, 3]
    assert body["results"][0]["report"]["steps"] and body["results"][1]["report"]["score"] == 0
    assert body["results"][2]["error"]["field"] == "items.2"
    bad = body["results"][3]
    assert bad["report"] is None
    assert bad["error"]["code"] == "invalid_request"
    assert bad["error"]["field"] == "items.3.solution"
    assert bad["error"]["message"].startswith("items.3.solution: ")
    # the graded items were stored, the failed ones not
    assert body["results"][1]["report"]["meta"]["grade_id"]


def test_the_batch_schema_still_shows_grade_requests(client):
    schema = client.get("/openapi.json").json()["components"]["schemas"]["BatchRequest"]
    assert schema["properties"]["items"]["items"] == {"$ref": "#/components/schemas/GradeRequest"}


def test_a_batch_that_is_no_list_is_still_refused_whole(client):
    r = client.post("/grade/batch", json={"items": {"problem": "p"}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "items"


@pytest.mark.parametrize("path", ["/grade", "/grade/batch", "/grade/stream"])
def test_an_empty_body_says_the_body_is_missing(client, path):
    r = client.post(path, headers={"Content-Type": "application/json"})
    assert r.status_code == 422
    assert r.json()["error"] == {
        "code": "empty_body",
        "field": "body",
        "message": "the request has no body: send a JSON object (Content-Type: application/json)",
    }


def test_a_body_that_is_not_json_says_so(client):
    r = client.post(
        "/grade", content=b'{"problem": "p",', headers={"Content-Type": "application/json"}
    )
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "invalid_json" and error["field"] == "body"
    assert error["message"].startswith("the request body is not valid JSON (")
    assert "at character" in error["message"]


def test_a_field_error_still_names_the_field(client):
    r = client.post("/grade", json={**ARITHMETIC_SLIP, "solution": 5})
    assert r.status_code == 422 and r.json()["error"]["field"] == "solution"


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


def test_docs_and_openapi_are_routes_in_the_metrics(client):
    for path in ("/docs", "/openapi.json", "/redoc", "/docs-assets/swagger-ui-bundle.js"):
        assert client.get(path).status_code == 200
    client.get("/no-such-page")
    text = client.get("/metrics").text
    for route in ("/docs", "/openapi.json", "/redoc", "/docs-assets"):
        assert f'route="{route}",status="200"' in text, route
    unmatched = [
        line
        for line in text.splitlines()
        if line.startswith("stepgrade_http_requests_total") and 'route="unmatched"' in line
    ]
    assert unmatched and all('status="404"' in line for line in unmatched)


def test_the_api_docs_load_nothing_from_another_host(client):
    for path, assets in (
        ("/docs", ("swagger-ui-bundle.js", "swagger-ui.css")),
        ("/redoc", ("redoc.standalone.js",)),
    ):
        page = client.get(path).text
        assert "http://" not in page and "https://" not in page, path
        for asset in assets:
            assert f"/docs-assets/{asset}" in page
            assert client.get(f"/docs-assets/{asset}").status_code == 200


def test_pretty_never_prints_a_negative_zero(client):
    report = GradeReport.model_validate(client.post("/grade", json=ARITHMETIC_SLIP).json())
    assert report.hcrs.format_penalty == 0
    text = format_report(report, width=100)
    assert "-0.00" not in text
    assert "format 0.00" in text
    assert f"hazard -{report.hcrs.hazard_penalty:.2f}" in text


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

    from .conftest import bag_of_words, settings_for

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
