"""The /grades API's bodies: the review queue, one stored grade, corrections, the export."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from scoring.schema import JudgedLabel, StepLabel
from server.store.models import Correction, Grade
from server.store.review import review_fields


def _utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC)


class ReviewReason(BaseModel):
    code: str
    message: str


class GradeSummary(BaseModel):
    id: str
    created_at: datetime
    score: int = Field(description="The graded score, 0-10.")
    score_interval: tuple[int, int] | None = Field(
        default=None, description="[lo, hi] of the score, when the report has one."
    )
    needs_review: bool = False
    review_reasons: list[ReviewReason] = Field(default_factory=list)
    problem_excerpt: str
    corrected: bool

    @classmethod
    def of(cls, grade: Grade) -> GradeSummary:
        """The queue's line for a stored grade."""
        review = review_fields(grade.report)
        return cls(
            id=grade.id,
            created_at=_utc(grade.created_at),
            score=grade.score,
            score_interval=review.score_interval,
            needs_review=review.needs_review,
            review_reasons=[ReviewReason(**r) for r in review.review_reasons],
            problem_excerpt=grade.problem_excerpt,
            corrected=grade.corrected,
        )


class GradeList(BaseModel):
    items: list[GradeSummary]
    next_cursor: str | None = Field(
        default=None, description="Pass as `cursor` for the next page; null on the last page."
    )


class CorrectionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    step_labels: list[JudgedLabel] = Field(
        description="One label per step of the stored report (a teacher's judgement: not "
        "`unchecked`)."
    )
    score: int | None = Field(default=None, ge=0, le=10, description="The right score, if given.")
    note: str = Field(default="", max_length=4000)
    reviewer: str | None = Field(default=None, max_length=200)


class CorrectionOut(BaseModel):
    id: int
    grade_id: str
    created_at: datetime
    step_labels: list[JudgedLabel]
    score: int | None
    note: str
    reviewer: str | None
    superseded: bool = Field(default=False, description="A later correction replaces this one.")

    @classmethod
    def of(cls, correction: Correction, superseded: bool = False) -> CorrectionOut:
        """A stored correction as the API shows it."""
        return cls(
            id=correction.id,
            grade_id=correction.grade_id,
            created_at=_utc(correction.created_at),
            step_labels=correction.step_labels,  # type: ignore[arg-type]  # checked on entry
            score=correction.score,
            note=correction.note,
            reviewer=correction.reviewer,
            superseded=superseded,
        )


class GradeDetail(BaseModel):
    id: str
    created_at: datetime
    request: dict[str, Any] = Field(description="The GradeRequest as graded.")
    report: dict[str, Any] = Field(description="The GradeReport as answered.")
    corrections: list[CorrectionOut] = Field(description="Oldest first; the last one holds.")

    @classmethod
    def of(cls, grade: Grade) -> GradeDetail:
        """A stored grade with its request, report and corrections (latest last)."""
        last = len(grade.corrections) - 1
        return cls(
            id=grade.id,
            created_at=_utc(grade.created_at),
            request=grade.request,
            report=grade.report,
            corrections=[
                CorrectionOut.of(c, superseded=i < last) for i, c in enumerate(grade.corrections)
            ],
        )


class ExportLine(BaseModel):
    """One line of `GET /grades/export`: a graded solution with its human labels, in the shape
    calibration data has (the problem, its steps, a label per step, a score)."""

    grade_id: str
    created_at: datetime
    problem: str
    steps: list[str] = Field(description="The report's steps, which the labels label.")
    labels: list[StepLabel] | None = Field(description="The latest correction's step labels.")
    score: int | None = Field(description="The latest correction's score, if it gave one.")
    model_labels: list[StepLabel]
    model_score: int
    reviewer: str | None = None
    note: str = ""
    problem_key: str | None = Field(
        default=None,
        description="The problem's memory key (docs/memory.md); the corrected "
        "lines of one key are what that problem's memory holds.",
    )
    report: dict[str, Any]

    @classmethod
    def of(cls, grade: Grade, correction: Correction | None) -> ExportLine:
        """A corrected grade as one line of calibration data."""
        steps = grade.report.get("steps") or []
        return cls(
            grade_id=grade.id,
            created_at=_utc(grade.created_at),
            problem=str(grade.request.get("problem", "")),
            steps=[str(s.get("text", "")) for s in steps],
            labels=correction.step_labels if correction else None,  # type: ignore[arg-type]
            score=correction.score if correction else None,
            model_labels=[s.get("label") for s in steps],
            model_score=grade.score,
            reviewer=correction.reviewer if correction else None,
            note=correction.note if correction else "",
            problem_key=grade.problem_key,
            report=grade.report,
        )
