"""The /grades API's bodies: built from stored rows, in UTC, corrections validated on entry."""

from __future__ import annotations

from datetime import UTC

import pytest
from pydantic import ValidationError

from server.store.repository import add_correction, get_grade
from server.store.schemas import CorrectionIn, ExportLine, GradeDetail, GradeSummary
from tests.server.store.conftest import save


def test_a_summary_carries_the_review_fields_and_a_utc_time(store):
    grade = save(store, score=6, interval=[2, 9], needs_review=True)
    summary = GradeSummary.of(grade)
    assert (summary.score, summary.score_interval, summary.needs_review) == (6, (2, 9), True)
    assert [r.code for r in summary.review_reasons] == ["wide_interval"]
    assert summary.created_at.tzinfo is UTC and summary.corrected is False
    plain = GradeSummary.of(save(store))
    assert (plain.score_interval, plain.needs_review, plain.review_reasons) == (None, False, [])


def test_a_detail_marks_every_correction_but_the_last_superseded(store):
    grade = save(store, steps=2)
    with store.session() as session:
        add_correction(session, "a", grade.id, step_labels=["correct", "correct"], score=9)
        add_correction(session, "a", grade.id, step_labels=["correct", "incorrect"], score=4)
        detail = GradeDetail.of(get_grade(session, "a", grade.id))
    assert [(c.score, c.superseded) for c in detail.corrections] == [(9, True), (4, False)]
    assert detail.report["score"] == 5 and detail.request["problem"] == "Solve 2x + 3 = 11."


def test_an_export_line_has_the_calibration_datas_shape(store):
    grade = save(store, steps=2)
    uncorrected = ExportLine.of(grade, None)
    assert uncorrected.steps == ["step 1", "step 2"]
    assert (uncorrected.labels, uncorrected.score, uncorrected.note) == (None, None, "")
    assert uncorrected.model_labels == ["correct", "correct"] and uncorrected.model_score == 5
    with store.session() as session:
        corrected = add_correction(
            session, "a", grade.id, step_labels=["correct", "incorrect"], score=3, reviewer="t"
        ).correction
    line = ExportLine.of(grade, corrected)
    assert (line.labels, line.score, line.reviewer) == (["correct", "incorrect"], 3, "t")
    assert line.problem == "Solve 2x + 3 = 11." and line.problem_key == grade.problem_key


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"step_labels": ["unchecked"]}, "step_labels"),  # a teacher judges every step
        ({"step_labels": ["correct"], "score": 11}, "score"),
        ({"step_labels": ["correct"], "note": "x" * 4001}, "note"),
        ({"step_labels": ["correct"], "grade": 3}, "grade"),  # unknown fields are refused
    ],
)
def test_a_correction_body_is_refused_where_it_is_wrong(body, field):
    with pytest.raises(ValidationError) as err:
        CorrectionIn(**body)
    assert err.value.errors()[0]["loc"][0] == field


def test_a_correction_body_with_labels_only_is_accepted():
    body = CorrectionIn(step_labels=["correct", "redundant"])
    assert (body.score, body.note, body.reviewer) == (None, "", None)
