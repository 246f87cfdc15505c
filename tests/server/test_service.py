"""Every endpoint, status code and error shape of the service (offline grading, no LLM)."""

from __future__ import annotations

import pytest

from example_requests import ARITHMETIC_SLIP, GIVEN_STEPS

from .conftest import service, sse_events


@pytest.fixture(scope="module")
def client():
    with service(max_body_bytes=300_000, batch_max_items=3) as c:
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


def test_batch_in_order_with_per_item_failure(client):
    items = [ARITHMETIC_SLIP, {**GIVEN_STEPS, "mode": "llm"}, GIVEN_STEPS]
    r = client.post("/grade/batch", json={"items": items})
    assert r.status_code == 200
    body = r.json()
    assert [x["index"] for x in body["results"]] == [0, 1, 2]
    assert body["succeeded"] == 2 and body["failed"] == 1
    assert body["results"][0]["report"]["score"] == 0
    assert body["results"][1]["error"]["code"] == "llm_unavailable"
    assert body["results"][1]["report"] is None
    assert body["results"][2]["report"]["steps"][0]["text"] == GIVEN_STEPS["solution_steps"][0]


def test_batch_limits(client):
    r = client.post("/grade/batch", json={"items": [GIVEN_STEPS] * 4})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "too_many_items" and r.json()["error"]["field"] == "items"
    r = client.post("/grade/batch", json={"items": []})
    assert r.status_code == 422 and r.json()["error"]["field"] == "items"
    r = client.post("/grade/batch", json={"items": [GIVEN_STEPS, {"problem": "p"}]})
    assert r.status_code == 200  # an invalid item fails only itself (tests/server/test_edges.py)
    assert r.json()["results"][1]["error"]["field"] == "items.1"


def test_stream_events_in_graph_order(client):
    r = client.post("/grade/stream", json=ARITHMETIC_SLIP)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = sse_events(r.text)
    names = [e for e, _ in events]
    assert names[0] == "accepted" and names[-1] == "report"
    nodes = [d["node"] for e, d in events if e == "node"]
    assert nodes[0] == "prepare" and nodes[-1] == "aggregate"
    for before, after in [
        ("segment", "score_steps"),
        ("score_steps", "verify"),
        ("verify", "build_tree"),
        ("build_tree", "aggregate"),
    ]:
        assert nodes.index(before) < nodes.index(after)
    by_node = {d["node"]: d for e, d in events if e == "node"}
    assert [s["index"] for s in by_node["segment"]["steps"]] == [1, 2, 3]
    assert "labels" not in by_node["score_steps"]  # offline: nothing to ask a model
    assert [s["label"] for s in by_node["verify"]["labels"]] == [
        "incorrect",
        "meaningless",
        "incorrect",
    ]
    assert by_node["build_tree"]["tree"]["chains"] == [[1, 2, 3]]
    report = events[-1][1]
    assert report["score"] == 0 and report["meta"]["elapsed_ms"] > 0
    assert set(report["meta"]["node_ms"]) >= {"prepare", "segment", "aggregate"}
    assert report == client.post("/grade", json=ARITHMETIC_SLIP).json() | {"meta": report["meta"]}


def test_stream_refuses_bad_requests_before_streaming(client):
    r = client.post("/grade/stream", json={**GIVEN_STEPS, "mode": "llm"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "llm_unavailable"
    r = client.post("/grade/stream", json={"problem": "p"})
    assert r.status_code == 422


def test_health_ready_metrics(client):
    assert client.get("/healthz").json() == {"status": "ok"}
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.json() == {
        "status": "ready",
        "checks": {"embedding_model": "ok", "answer_worker": "ok", "llm": "not_configured"},
    }
    client.post("/grade", json=GIVEN_STEPS)
    text = client.get("/metrics").text
    assert 'stepgrade_http_requests_total{method="POST",route="/grade",status="200"}' in text
    assert "stepgrade_http_request_duration_seconds_bucket" in text
    assert 'stepgrade_grades_total{endpoint="grade",mode="offline"}' in text
    for name in (
        "stepgrade_llm_calls_total",
        "stepgrade_llm_tokens_total",
        "stepgrade_degraded_grades_total",
    ):
        assert name in text


def test_unknown_routes_do_not_grow_metric_labels(client):
    client.get("/no/such/path/123")
    assert "/no/such/path" not in client.get("/metrics").text


def test_method_not_allowed_is_json(client):
    r = client.get("/grade")
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"


def test_body_limit_by_content_length_and_by_streamed_bytes(client):
    big = {"problem": "p", "solution": "x" * 400_000}
    r = client.post("/grade", json=big)
    assert r.status_code == 413 and r.json()["error"]["code"] == "body_too_large"
    assert "x-request-id" in r.headers

    def chunks():  # no Content-Length: sent chunked, must still be counted
        for _ in range(40):
            yield b"x" * 10_000

    r = client.post("/grade", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413


def test_openapi_documents_every_endpoint_with_examples(client):
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    assert {
        "/grade",
        "/grade/batch",
        "/grade/stream",
        "/healthz",
        "/readyz",
        "/metrics",
        "/calibration",
    } <= set(paths)
    for path in ("/grade", "/grade/batch", "/grade/stream"):
        assert paths[path]["post"]["requestBody"]["content"]["application/json"]["examples"]
    for path in ("/healthz", "/readyz", "/metrics", "/calibration"):
        content = paths[path]["get"]["responses"]["200"]["content"]
        assert any("example" in c for c in content.values())
    assert client.get("/docs").status_code == 200


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


def test_settings_split_comma_separated_keys(monkeypatch):
    from server.core.settings import Settings

    monkeypatch.setenv("STEPGRADE_API_KEYS", " a ,b,, ")
    keys = Settings(_env_file=None).api_keys
    assert [k.get_secret_value() for k in keys] == ["a", "b"]
