"""POST /grade/batch: results in order, one item failing fails only itself, the batch's limits."""

from __future__ import annotations

import pytest

from example_requests import ARITHMETIC_SLIP, GIVEN_STEPS
from tests.server.conftest import service


@pytest.fixture(scope="module")
def client():
    with service(batch_max_items=4) as c:
        yield c


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
    r = client.post("/grade/batch", json={"items": [GIVEN_STEPS] * 5})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "too_many_items" and r.json()["error"]["field"] == "items"
    r = client.post("/grade/batch", json={"items": []})
    assert r.status_code == 422 and r.json()["error"]["field"] == "items"
    r = client.post("/grade/batch", json={"items": [GIVEN_STEPS, {"problem": "p"}]})
    assert r.status_code == 200  # an invalid item fails only itself
    assert r.json()["results"][1]["error"]["field"] == "items.1"


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
