"""The stored grades: the review queue, one grade, corrections, and the export for calibration.

Each key sees only its own grades (another key's are 404). The handlers are plain functions:
FastAPI runs them in its thread pool, so database calls never block the event loop.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Depends, Path, Query
from fastapi.responses import Response

from server.api.deps import OwnerDep, SessionDep
from server.core.errors import ApiError
from server.core.security import require_api_key
from server.schemas import ErrorResponse
from server.store import repository
from server.store.schemas import (
    CorrectionIn,
    CorrectionOut,
    ExportLine,
    GradeDetail,
    GradeList,
    GradeSummary,
)

router = APIRouter(tags=["grades"], dependencies=[Depends(require_api_key)])

GradeId = Annotated[
    str,
    Path(
        description="`meta.grade_id` of a graded report.",
        examples=["3f2a9c0e8b7d4e6f9a1b2c3d4e5f6a7b"],
    ),
]

_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "X-API-Key missing or wrong (when keys are set)."},
    404: {"model": ErrorResponse, "description": "No such grade for this key."},
    422: {"model": ErrorResponse, "description": "Invalid request; `field` names the culprit."},
    503: {
        "model": ErrorResponse,
        "description": "The service keeps no grades (STEPGRADE_STORE=off).",
    },
}

_SUMMARY_EXAMPLE = {
    "id": "3f2a9c0e8b7d4e6f9a1b2c3d4e5f6a7b",
    "created_at": "2026-11-25T19:36:45Z",
    "score": 6,
    "score_interval": [4, 8],
    "needs_review": True,
    "review_reasons": [{"code": "wide_interval", "message": "the score could be 4 to 8"}],
    "problem_excerpt": "Solve 2x + 3 = 11.",
    "corrected": False,
}
_CORRECTION_EXAMPLE = {
    "id": 1,
    "grade_id": _SUMMARY_EXAMPLE["id"],
    "created_at": "2026-11-25T20:01:02Z",
    "step_labels": ["correct", "incorrect"],
    "score": 4,
    "note": "step 2 divides by the wrong number",
    "reviewer": "teacher-7",
    "superseded": False,
}
_CORRECTION_EXAMPLES = {
    "labels and score": {
        "summary": "Relabel the steps and set the score",
        "value": {
            "step_labels": ["correct", "incorrect"],
            "score": 4,
            "note": "step 2 divides by the wrong number",
            "reviewer": "teacher-7",
        },
    },
    "labels only": {
        "summary": "Relabel the steps only",
        "value": {"step_labels": ["correct", "correct"]},
    },
}


def _json_example(example: object) -> dict[str, Any]:
    return {"content": {"application/json": {"example": example}}}


def _not_found(grade_id: str) -> ApiError:
    return ApiError(404, "not_found", f"no grade {grade_id}", "id")


@router.get(
    "/grades",
    response_model=GradeList,
    responses={200: _json_example({"items": [_SUMMARY_EXAMPLE], "next_cursor": None}), **_ERRORS},
)
def list_grades(
    owner: OwnerDep,
    session: SessionDep,
    needs_review: Annotated[
        bool | None, Query(description="Only grades that do (or do not) need review.")
    ] = None,
    order: Annotated[
        Literal["uncertainty", "created", "teach"],
        Query(
            description="`uncertainty`: widest score interval first (none last), then newest; "
            "`created`: newest first; `teach`: uncorrected grades whose correction "
            "would teach the problem memory the most, problems with no memory first "
            "(one page, no cursor; docs/memory.md)."
        ),
    ] = "created",
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    cursor: Annotated[str | None, Query(description="`next_cursor` of the previous page.")] = None,
) -> GradeList:
    """The review queue: this key's grades, a page at a time."""
    try:
        page = repository.list_grades(
            session, owner, order=order, needs_review=needs_review, limit=limit, cursor=cursor
        )
    except repository.InvalidCursor as err:
        raise ApiError(422, "invalid_cursor", f"query.cursor: {err}", "query.cursor") from None
    return GradeList(items=[GradeSummary.of(g) for g in page.grades], next_cursor=page.next_cursor)


@router.get(
    "/grades/export",
    response_class=Response,
    responses={
        200: {
            "description": "JSON lines, one `ExportLine` per grade, oldest first.",
            "content": {
                "application/x-ndjson": {
                    "example": (
                        '{"grade_id": "3f2a...", "created_at": "2026-11-25T19:36:45Z", '
                        '"problem": "Solve 2x + 3 = 11.", "steps": ["2x = 8", "x = 3"], '
                        '"labels": ["correct", "incorrect"], "score": 4, '
                        '"model_labels": ["correct", "correct"], "model_score": 10, '
                        '"reviewer": "teacher-7", "note": "", "report": {"score": 10, "...": "..."}}\n'
                    )
                }
            },
        },
        **_ERRORS,
    },
)
def export_grades(
    owner: OwnerDep,
    session: SessionDep,
    corrected: Annotated[
        bool,
        Query(
            description="Only corrected grades (calibration data); "
            "false: every grade, `labels` null where uncorrected."
        ),
    ] = True,
) -> Response:
    """This key's grades with their human labels, as JSON lines for recalibration."""
    rows = repository.export_grades(session, owner, corrected_only=corrected)
    body = "".join(ExportLine.of(r.grade, r.correction).model_dump_json() + "\n" for r in rows)
    return Response(body, media_type="application/x-ndjson")


@router.get(
    "/grades/{grade_id}",
    response_model=GradeDetail,
    responses={
        200: _json_example(
            {
                "id": _SUMMARY_EXAMPLE["id"],
                "created_at": "2026-11-25T19:36:45Z",
                "request": {"problem": "Solve 2x + 3 = 11.", "solution_steps": ["2x = 8", "x = 3"]},
                "report": {"score": 4, "steps": ["..."], "meta": {"...": "..."}},
                "corrections": [_CORRECTION_EXAMPLE],
            }
        ),
        **_ERRORS,
    },
)
def get_grade(grade_id: GradeId, owner: OwnerDep, session: SessionDep) -> GradeDetail:
    """One stored grade: the request, the report and every correction (the last one holds)."""
    try:
        return GradeDetail.of(repository.get_grade(session, owner, grade_id))
    except repository.GradeNotFound:
        raise _not_found(grade_id) from None


@router.post(
    "/grades/{grade_id}/corrections",
    status_code=201,
    response_model=CorrectionOut,
    responses={
        201: _json_example(_CORRECTION_EXAMPLE),
        200: {
            "description": "The same correction as the grade's latest one (a "
            "retry): nothing stored, the latest one returned."
        },
        **_ERRORS,
    },
)
def add_correction(
    grade_id: GradeId,
    owner: OwnerDep,
    session: SessionDep,
    response: Response,
    correction: Annotated[CorrectionIn, Body(openapi_examples=_CORRECTION_EXAMPLES)],
) -> CorrectionOut:
    """A teacher's labels (one per reported step) and score; it supersedes earlier ones and
    becomes what this key's memory of the problem holds of this solution (docs/memory.md).
    Sending the same correction again stores nothing (200)."""
    try:
        stored = repository.add_correction(
            session,
            owner,
            grade_id,
            step_labels=list(correction.step_labels),
            score=correction.score,
            note=correction.note,
            reviewer=correction.reviewer,
        )
    except repository.GradeNotFound:
        raise _not_found(grade_id) from None
    except repository.LabelsMismatch as err:
        raise ApiError(422, "labels_mismatch", str(err), "step_labels") from None
    if not stored.created:
        response.status_code = 200
    return CorrectionOut.of(stored.correction)
