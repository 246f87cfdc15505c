"""Fault injection: the service in LLM mode against a misbehaving OpenAI-compatible server.

Every request gets a valid response; a grade that needed the LLM and could not have it says so
(`meta.degraded`, a warning, and per operation the reason), and is still the offline grade,
never a silent minimum. `/grade/stream` falls back the same way.
"""

from __future__ import annotations

import socket
import time

import pytest

from eval_sets.fakes.openai_server import FakeOpenAI
from example_requests import ARITHMETIC_SLIP

from .conftest import service, sse_events

pytestmark = pytest.mark.timeout(120)

LLM_REQUEST = {**ARITHMETIC_SLIP, "mode": "llm"}
OFFLINE_LABELS = ["incorrect", "meaningless", "incorrect"]


@pytest.fixture(scope="module")
def fake():
    with FakeOpenAI() as llm:
        yield llm


@pytest.fixture(scope="module")
def client(fake):
    with service(
        llm_base_url=fake.base_url,
        llm_model="fake-model",
        llm_timeout=2.0,
        llm_max_retries=0,
        llm_budget=4.0,
        offline_fallback_budget=2.0,
    ) as c:
        yield c


@pytest.fixture(autouse=True)
def healthy_after(fake):
    yield
    fake.fault, fake.latency = "none", 0.0


@pytest.fixture
def graph_fails_once(monkeypatch):
    """The grade's graph raises once, after its LLM calls, where nothing contains it (`aggregate`
    has no neutral part: a failed check elsewhere is contained, see test_containment)."""
    import agent.nodes.aggregate as node

    real, calls = node.fuse, []

    def fails_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("fusion exploded")
        return real(*args, **kwargs)

    monkeypatch.setattr(node, "fuse", fails_once)


def test_healthy_llm_grades_in_llm_mode_with_metrics(client):
    r = client.post("/grade", json=LLM_REQUEST)
    meta = r.json()["meta"]
    assert r.status_code == 200 and meta["mode"] == "llm" and not meta["degraded"]
    assert meta["llm_calls"] == 4
    assert {op["method"] for op in meta["llm_operations"]} == {"json_schema"}
    fused = client.post("/grade", json={**LLM_REQUEST, "fused": True}).json()["meta"]
    assert fused["llm_calls"] == 3 and not fused["degraded"]
    text = client.get("/metrics").text
    assert "stepgrade_llm_calls_total 7.0" in text
    assert 'stepgrade_llm_tokens_total{kind="prompt"}' in text
    assert client.get("/readyz").json()["checks"]["llm"] == "ok"


@pytest.mark.parametrize("fault", ["429", "500", "malformed", "garbage", "hang"])
def test_every_fault_still_gets_a_degraded_report(client, fake, fault):
    fake.fault = fault
    r = client.post("/grade", json=LLM_REQUEST)
    assert r.status_code == 200, r.text[:300]
    report = r.json()
    assert report["meta"]["degraded"] is True and report["meta"]["mode"] == "llm"
    assert report["meta"]["warnings"]
    assert [s["label"] for s in report["steps"]] == OFFLINE_LABELS
    assert report["score"] == 0 and report["error_tree"]["chains"] == [[1, 2, 3]]
    reasons = {op["degraded"] for op in report["meta"]["llm_operations"]}
    assert reasons <= {"transport", "format", "deadline"} and None not in reasons


def test_degraded_grades_are_counted(client, fake):
    fake.fault = "500"
    client.post("/grade", json=LLM_REQUEST)
    line = next(
        x
        for x in client.get("/metrics").text.splitlines()
        if x.startswith("stepgrade_degraded_grades_total")
    )
    assert float(line.split()[-1]) >= 1


def test_the_llm_budget_comes_from_the_settings_and_meta_tells_the_truth(fake):
    fake.latency = 30.0  # a model far slower than any budget
    with service(
        llm_base_url=fake.base_url,
        llm_model="fake-model",
        llm_timeout=60,
        llm_max_retries=0,
        llm_budget=1.5,
    ) as c:
        t0 = time.monotonic()
        r = c.post("/grade", json=LLM_REQUEST)
        took = time.monotonic() - t0
    meta = r.json()["meta"]
    assert r.status_code == 200 and meta["mode"] == "llm" and meta["degraded"]
    assert 1.5 <= took < 1.5 + 8.0  # the budget, then the offline grade (not the 60 s time-out)
    assert meta["elapsed_ms"] >= 1500 and meta["llm_calls"] >= 1
    assert {op["degraded"] for op in meta["llm_operations"]} == {"deadline"}


def test_a_grade_that_fails_outright_falls_back_with_honest_meta(client, fake, graph_fails_once):
    fake.latency = 0.3
    meta = client.post("/grade", json=LLM_REQUEST).json()["meta"]
    assert meta["mode"] == "llm" and meta["degraded"] and meta["llm_calls"] == 4
    assert meta["elapsed_ms"] >= 600  # two round trips of 0.3 s before the failure
    assert any("RuntimeError: fusion exploded" in w for w in meta["warnings"])


def test_stream_falls_back_like_grade(client, fake, graph_fails_once):
    events = sse_events(client.post("/grade/stream", json=LLM_REQUEST).text)
    assert events[0][0] == "accepted" and events[-1][0] == "report"
    meta = events[-1][1]["meta"]
    assert meta["mode"] == "llm" and meta["degraded"] and meta["llm_calls"] == 4


def test_stream_past_the_llm_budget_ends_with_a_report(client, fake):
    fake.fault = "hang"
    events = sse_events(client.post("/grade/stream", json=LLM_REQUEST).text)
    kind, report = events[-1]
    assert kind == "report" and report["meta"]["degraded"]
    assert any(e == "node" and d.get("degraded") for e, d in events)


def test_slow_llm_past_the_deadline_falls_back_offline(client, fake):
    fake.latency = 2.5  # longer than llm_timeout (2 s): every call times out
    r = client.post("/grade", json=LLM_REQUEST)
    assert r.status_code == 200 and r.json()["meta"]["degraded"] is True


def test_batch_mixes_faults_per_item(client, fake):
    fake.fault = "429"
    items = [LLM_REQUEST, {**LLM_REQUEST, "mode": "offline"}]
    body = client.post("/grade/batch", json={"items": items}).json()
    assert body["failed"] == 0
    assert body["results"][0]["report"]["meta"]["degraded"] is True
    assert body["results"][1]["report"]["meta"]["degraded"] is False


def test_unreachable_llm_is_not_ready():
    with service(llm_base_url="http://127.0.0.1:9/v1", llm_model="m", ready_timeout=0.5) as c:
        r = c.get("/readyz")
        assert r.status_code == 503
        assert r.json() == {
            "status": "not_ready",
            "checks": {"embedding_model": "ok", "answer_worker": "ok", "llm": "unreachable"},
        }


def test_a_busy_llm_is_ready_and_said_busy():
    """A server generating for someone else takes the connection but answers `/models` late."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(8)  # never accepts: connections wait in the backlog, unanswered
        url = f"http://127.0.0.1:{busy.getsockname()[1]}/v1"
        with service(llm_base_url=url, llm_model="m", ready_timeout=0.3) as c:
            r = c.get("/readyz")
    assert r.status_code == 200 and r.json()["checks"]["llm"] == "busy"


@pytest.mark.parametrize(("cache", "expected"), [(30.0, "ok"), (0.0, "unreachable")])
def test_a_recent_answer_is_remembered_as_readiness(cache, expected):
    endpoint = FakeOpenAI().__enter__()
    try:
        with service(
            llm_base_url=endpoint.base_url,
            llm_model="fake-model",
            ready_timeout=0.3,
            ready_cache=cache,
        ) as c:
            assert c.post("/grade", json=LLM_REQUEST).json()["meta"]["degraded"] is False
            endpoint.__exit__()  # the endpoint is down now
            assert c.get("/readyz").json()["checks"]["llm"] == expected
    finally:
        endpoint.__exit__()
