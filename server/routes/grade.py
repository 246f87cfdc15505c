"""POST /grade: one GradeRequest, one GradeReport; grading runs off the event loop."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from scoring.schema import GradeReport, GradeRequest
from server.deps import GraderDep

router = APIRouter(tags=["grading"])


@router.post("/grade", response_model=GradeReport)
async def grade(request: GradeRequest, grader: GraderDep) -> GradeReport:
    """Grade one step-by-step solution: score, step labels, Tree-of-Error, answer check."""
    return await run_in_threadpool(grader.grade, request)
