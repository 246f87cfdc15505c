"""The terminal table of a report: its columns and signs."""

from __future__ import annotations

import pytest

from example_requests import ARITHMETIC_SLIP
from scoring.schema import GradeReport
from server.pretty import format_report
from tests.server.conftest import service


@pytest.fixture(scope="module")
def client():
    with service() as c:
        yield c


def test_pretty_never_prints_a_negative_zero(client):
    report = GradeReport.model_validate(client.post("/grade", json=ARITHMETIC_SLIP).json())
    assert report.hcrs.format_penalty == 0
    text = format_report(report, width=100)
    assert "-0.00" not in text
    assert "format 0.00" in text
    assert f"hazard -{report.hcrs.hazard_penalty:.2f}" in text


def test_every_step_has_its_mark_label_and_reason_and_the_answer_its_verdict(offline_report):
    text = format_report(offline_report, width=100)
    assert text.splitlines()[0].startswith(f"score {offline_report.score}/10 (raw ")
    for step in offline_report.steps:
        assert f"{step.index:>3}  " in text and step.label in text
    verdict = {True: "correct", False: "wrong", None: "undecided"}[offline_report.answer.correct]
    assert f": {verdict} (" in text
    assert text.splitlines()[-1].startswith("time ")


def test_long_steps_are_clipped_to_the_width_and_warnings_wrapped(offline_report):
    long = offline_report.steps[0].model_copy(update={"text": "word " * 200})
    meta = offline_report.meta.model_copy(update={"warnings": ["careful " * 30]})
    report = offline_report.model_copy(update={"steps": [long], "meta": meta})
    lines = format_report(report, width=80).splitlines()
    step_line = next(line for line in lines if "word word" in line)
    assert len(step_line) <= 80 and step_line.endswith("…")
    warnings = [line for line in lines if line.startswith(("warning", " " * 12))]
    assert len(warnings) > 1 and all(len(line) <= 80 for line in warnings)


def test_a_grade_that_asks_for_review_says_why(offline_report):
    from scoring.schema import ReviewReason

    reason = ReviewReason(code="wide_interval", message="the score could be 2 to 9")
    report = offline_report.model_copy(
        update={"score_interval": (2, 9), "needs_review": True, "review_reasons": [reason]}
    )
    text = format_report(report, width=100)
    assert "likely      2-9 (80% interval)" in text
    assert "REVIEW      the score could be 2 to 9" in text
