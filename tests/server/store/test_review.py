"""What the review queue reads from a stored report: the uncertainty fields, or their defaults."""

from __future__ import annotations

import pytest

from server.store.models import NO_INTERVAL
from server.store.repository import (
    new_grade,
)
from server.store.review import review_fields
from tests.server.store.conftest import report_json, request_json


def test_review_fields_read_the_uncertainty_fields_when_present():
    assert review_fields(report_json()) == review_fields({})
    assert review_fields(report_json()).needs_review is False
    fields = review_fields(report_json(interval=[3, 8], needs_review=True))
    assert (fields.needs_review, fields.score_interval, fields.interval_width) == (True, (3, 8), 5)
    assert fields.review_reasons == [{"code": "wide_interval", "message": "wide"}]
    grade = new_grade(
        "a", request_json("x " * 200), report_json(interval=[3, 8], needs_review=True)
    )
    assert (grade.needs_review, grade.interval_width, len(grade.problem_excerpt)) == (True, 5, 160)
    assert new_grade("a", request_json(), report_json()).interval_width == NO_INTERVAL


@pytest.mark.parametrize("interval", [None, [3], [1, 2, 3], "3-8", {"lo": 3, "hi": 8}], ids=repr)
def test_an_interval_that_is_not_a_pair_is_no_interval(interval):
    fields = review_fields({"score_interval": interval})
    assert fields.score_interval is None and fields.interval_width is None


def test_reasons_that_are_not_objects_are_left_out_and_missing_fields_are_empty():
    fields = review_fields({"needs_review": 1, "review_reasons": ["x", {"code": "c"}, 3]})
    assert fields.needs_review is True
    assert fields.review_reasons == [{"code": "c", "message": ""}]
