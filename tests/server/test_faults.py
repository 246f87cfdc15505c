"""Fault injection: the service in LLM mode against a misbehaving OpenAI-compatible server.

Every request gets a valid response; a grade that needed the LLM and could not have it says so
(`meta.degraded` and a warning), and is still the offline grade, never a silent minimum.
"""

from __future__ import annotations

import pytest

from server.examples import ARITHMETIC_SLIP
from server.fake_llm import FaultyLlm

from .conftest import service

pytestmark = pytest.mark.timeout(120)

LLM_REQUEST = {**ARITHMETIC_SLIP, "mode": "llm"}
OFFLINE_LABELS = ["incorrect", "meaningless", "incorrect"]


@pytest.fixture(scope="module")
def fake():
    with FaultyLlm() as llm:
        yield llm


@pytest.fixture(scope="module")
def client(fake):
    with service(llm_base_url=fake.base_url, llm_model="fake-model", llm_timeout=1.0,
                 llm_max_retries=0, request_timeout=4.0, offline_fallback_budget=2.0) as c:
        yield c


@pytest.fixture(autouse=True)
def healthy_after(fake):
    yield
    fake.fault, fake.latency = "none", 0.0


def test_healthy_llm_grades_in_llm_mode_with_metrics(client):
    r = client.post("/grade", json=LLM_REQUEST)
    meta = r.json()["meta"]
    assert r.status_code == 200 and meta["mode"] == "llm" and not meta["degraded"]
    assert meta["llm_calls"] == 4
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
    assert report["meta"]["degraded"] is True
    assert report["meta"]["warnings"]
    assert [s["label"] for s in report["steps"]] == OFFLINE_LABELS
    assert report["score"] == 0 and report["error_tree"]["chains"] == [[1, 2, 3]]


def test_degraded_grades_are_counted(client, fake):
    fake.fault = "500"
    client.post("/grade", json=LLM_REQUEST)
    line = next(x for x in client.get("/metrics").text.splitlines()
                if x.startswith("stepgrade_degraded_grades_total"))
    assert float(line.split()[-1]) >= 1


def test_slow_llm_past_the_deadline_falls_back_offline(client, fake):
    fake.latency = 1.5  # longer than llm_timeout (1 s): every call times out
    r = client.post("/grade", json=LLM_REQUEST)
    assert r.status_code == 200 and r.json()["meta"]["degraded"] is True


def test_batch_mixes_faults_per_item(client, fake):
    fake.fault = "429"
    items = [LLM_REQUEST, {**LLM_REQUEST, "mode": "offline"}]
    body = client.post("/grade/batch", json={"items": items}).json()
    assert body["failed"] == 0
    assert body["results"][0]["report"]["meta"]["degraded"] is True
    assert body["results"][1]["report"]["meta"]["degraded"] is False


def test_stream_reports_degradation(client, fake):
    fake.fault = "500"
    r = client.post("/grade/stream", json=LLM_REQUEST)
    assert r.status_code == 200
    assert '"degraded": true' in r.text and "event: report" in r.text


def test_unreachable_llm_is_not_ready():
    with service(llm_base_url="http://127.0.0.1:9/v1", llm_model="m", ready_timeout=0.5) as c:
        r = c.get("/readyz")
        assert r.status_code == 503
        assert r.json() == {"status": "not_ready", "checks": {
            "embedding_model": "ok", "answer_worker": "ok", "llm": "unreachable"}}
