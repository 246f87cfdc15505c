"""Service-only schemas: a served report names its stored grade, and a batch item that is no
GradeRequest is kept in its place as a rejection naming its field."""

from __future__ import annotations

from example_requests import ARITHMETIC_SLIP
from scoring.schema import GradeRequest
from server.schemas import BatchRequest, RejectedItem, served


def test_a_served_report_carries_the_grade_id_only_when_there_is_one(offline_report):
    kept = served(offline_report, "abc123").model_dump(mode="json")
    assert kept["meta"]["grade_id"] == "abc123" and kept["score"] == offline_report.score
    plain = served(offline_report).model_dump(mode="json")
    assert "grade_id" not in plain["meta"]
    assert {k: v for k, v in plain.items() if k != "meta"} == {
        k: v for k, v in offline_report.model_dump(mode="json").items() if k != "meta"
    }


def test_invalid_batch_items_become_rejections_in_their_place():
    batch = BatchRequest.model_validate(
        {"items": [ARITHMETIC_SLIP, 7, {**ARITHMETIC_SLIP, "solution": 5}]}
    )
    first, number, wrong = batch.items
    assert isinstance(first, GradeRequest)
    assert isinstance(number, RejectedItem) and isinstance(wrong, RejectedItem)
    detail = wrong.detail(2)
    assert (detail.code, detail.field) == ("invalid_request", "items.2.solution")
    assert detail.message.startswith("items.2.solution: ")
    assert number.detail(1).field == "items.1"


def test_the_batch_schema_shows_grade_requests_only():
    schema = BatchRequest.model_json_schema()
    assert schema["properties"]["items"]["items"] == {"$ref": "#/$defs/GradeRequest"}
    assert "RejectedItem" not in str(schema)
