"""POST /grade: one GradeRequest, one GradeReport; grading runs off the event loop."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends

from scoring.schema import GradeReport, GradeRequest
from server.deps import ServiceDep
from server.examples import GRADE_EXAMPLES
from server.schemas import ERROR_RESPONSES
from server.security import require_api_key

router = APIRouter(tags=["grading"], dependencies=[Depends(require_api_key)])


@router.post("/grade", response_model=GradeReport, responses=ERROR_RESPONSES)
async def grade(
    request: Annotated[GradeRequest, Body(openapi_examples=GRADE_EXAMPLES)], service: ServiceDep
) -> GradeReport:
    """Grade one step-by-step solution: score, step labels, Tree-of-Error, answer check."""
    return await service.grade(request)
