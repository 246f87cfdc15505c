"""GET /healthz and GET /readyz: alive once the grader is built; ready when every dependency is."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import respx

from agent.llm.client import LlmClient
from agent.llm.config import LlmConfig
from example_requests import GIVEN_STEPS
from server.api.routes.health import llm_check
from server.core.settings import Settings
from tests.server.conftest import service


@pytest.fixture(scope="module")
def client():
    with service() as c:
        yield c


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


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


def _llm(base_url: str = "http://llm.test/v1", **config) -> LlmClient:
    return LlmClient(LlmConfig(base_url=base_url, model="m", **config))


def _check(llm, **settings) -> str:
    return asyncio.run(llm_check(llm, Settings(_env_file=None, **settings)))


def test_the_llm_check_without_a_model_or_from_kept_answers_asks_nothing():
    assert _check(None) == "not_configured"
    assert _check(_llm(replay_only=True)) == "ok"


@respx.mock
def test_the_llm_check_asks_models_and_remembers_an_answer():
    route = respx.get("http://llm.test/v1/models").respond(404)  # any status: it answered
    llm = _llm()
    assert _check(llm) == "ok" and route.call_count == 1
    assert _check(llm, ready_cache=30) == "ok" and route.call_count == 1  # answered lately


@respx.mock
def test_a_slow_endpoint_is_busy_and_one_that_refuses_is_unreachable():
    respx.get("http://slow.test/v1/models").mock(side_effect=httpx.ReadTimeout("slow"))
    respx.get("http://down.test/v1/models").mock(side_effect=httpx.ConnectError("refused"))
    assert _check(_llm("http://slow.test/v1"), ready_cache=0) == "busy"
    assert _check(_llm("http://down.test/v1"), ready_cache=0) == "unreachable"


def test_readyz_is_503_naming_the_failed_dependency(client):
    client.app.state.readiness["embedding_model"] = "failed"
    try:
        answer = client.get("/readyz")
    finally:
        client.app.state.readiness["embedding_model"] = "ok"
    assert answer.status_code == 503
    assert answer.json()["status"] == "not_ready"
    assert answer.json()["checks"]["embedding_model"] == "failed"
