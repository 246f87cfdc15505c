"""POST /grade: one request, one report with a request id; bad requests answered 422 naming the field."""

from __future__ import annotations

import json

import pytest

from example_requests import ARITHMETIC_SLIP, EXAMPLES_DIR, GIVEN_STEPS
from tests.server.conftest import service


@pytest.fixture(scope="module")
def client():
    with service(max_body_bytes=300_000) as c:
        yield c


def test_grade_report_and_request_id(client):
    r = client.post("/grade", json=ARITHMETIC_SLIP)
    assert r.status_code == 200 and r.json()["score"] == 0
    assert len(r.headers["x-request-id"]) == 32
    echoed = client.post("/grade", json=GIVEN_STEPS, headers={"X-Request-ID": "tutor-42.a"})
    assert echoed.headers["x-request-id"] == "tutor-42.a"
    unsafe = client.get("/healthz", headers={"X-Request-ID": "bad id\twith spaces"})
    assert unsafe.headers["x-request-id"] != "bad id\twith spaces"


def test_server_timing_covers_the_grade(client):
    r = client.post("/grade", json=ARITHMETIC_SLIP)
    name, dur = r.headers["server-timing"].split(";dur=")
    assert name == "app" and float(dur) >= r.json()["meta"]["elapsed_ms"]


def test_errors_carry_request_id_and_shape(client):
    r = client.post("/grade", json={"solution": "s"}, headers={"X-Request-ID": "abc"})
    assert r.status_code == 422 and r.headers["x-request-id"] == "abc"
    assert set(r.json()["error"]) == {"code", "message", "field"}


def test_auth_required_when_keys_are_configured():
    with service(api_keys="k-one, k-two") as c:
        r = c.post("/grade", json=GIVEN_STEPS)
        assert r.status_code == 401 and r.json()["error"] == {
            "code": "unauthorized",
            "message": "missing or invalid X-API-Key header",
            "field": "X-API-Key",
        }
        assert c.post("/grade", json=GIVEN_STEPS, headers={"X-API-Key": "nope"}).status_code == 401
        assert c.post("/grade", json=GIVEN_STEPS, headers={"X-API-Key": "k-two"}).status_code == 200
        ok = c.post("/grade/batch", json={"items": [GIVEN_STEPS]}, headers={"X-API-Key": "k-one"})
        assert ok.status_code == 200
        assert c.post("/grade/stream", json=GIVEN_STEPS).status_code == 401
        assert c.get("/healthz").status_code == 200  # probes stay open
        assert c.get("/metrics").status_code == 200


def test_internal_errors_are_json_without_traceback(client, monkeypatch):
    async def boom(request, run=None, memory=None):
        raise RuntimeError("secret internals at /srv/x.py line 3")

    monkeypatch.setattr(client.app.state.grader, "agrade", boom)
    r = client.post("/grade", json=GIVEN_STEPS)
    assert r.status_code == 500
    assert r.json()["error"]["code"] == "internal_error"
    assert "secret" not in r.text and "Traceback" not in r.text
    assert r.headers["x-request-id"]


def test_deadline_without_llm_is_504():
    import asyncio

    with service(request_timeout=0.3) as c:

        async def slow(request, run=None, memory=None):
            await asyncio.sleep(1.0)

        c.app.state.grader.agrade = slow
        r = c.post("/grade", json=GIVEN_STEPS)
        assert r.status_code == 504 and r.json()["error"]["code"] == "deadline_exceeded"
        assert "0.3 s" in r.json()["error"]["message"]


def example(name):
    return json.loads((EXAMPLES_DIR / f"{name}.json").read_text(encoding="utf-8"))


def test_grade_returns_a_full_report(client):
    r = client.post("/grade", json=example("arithmetic_slip"))
    assert r.status_code == 200
    body = r.json()
    assert body["score"] == 0
    assert [s["label"] for s in body["steps"]] == ["incorrect", "meaningless", "incorrect"]
    assert body["error_tree"]["roots"] == [1]
    assert body["meta"]["mode"] == "offline"


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"problem": "p", "solution": "s", "mode": "fast"}, "mode"),
        ({"solution": "s"}, "problem"),
        ({"problem": "p", "solution_steps": "not a list"}, "solution_steps"),
    ],
)
def test_invalid_request_is_422_with_the_field(client, payload, field):
    r = client.post("/grade", json=payload)
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["code"] == "invalid_request" and error["field"] == field
    assert field in error["message"]


def test_missing_solution_is_422(client):
    r = client.post("/grade", json={"problem": "p"})
    assert r.status_code == 422
    assert "solution" in r.json()["error"]["message"]


def test_malformed_json_is_422_not_500(client):
    r = client.post("/grade", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "error" in r.json()


def test_llm_mode_without_endpoint_is_a_clear_422(client):
    r = client.post("/grade", json={"problem": "p", "solution": "s", "mode": "llm"})
    assert r.status_code == 422
    assert r.json()["error"] == {
        "code": "llm_unavailable",
        "message": r.json()["error"]["message"],
        "field": "mode",
    }
    assert "STEPGRADE_LLM_BASE_URL" in r.json()["error"]["message"]


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
