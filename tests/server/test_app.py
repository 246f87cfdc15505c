"""The minimal service: health, POST /grade, JSON errors naming the field."""

import json

import pytest
from fastapi.testclient import TestClient

from example_requests import EXAMPLES_DIR
from server.main import create_app

from .conftest import settings_for


@pytest.fixture(scope="module")
def client():
    app = create_app(settings_for())
    with TestClient(app) as c:
        yield c


def example(name):
    return json.loads((EXAMPLES_DIR / f"{name}.json").read_text(encoding="utf-8"))


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


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


def test_unknown_route_is_json_404(client):
    r = client.get("/nope")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
