"""POST /grade: one GradeRequest, one GradeReport; grading runs off the event loop."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends

from example_requests import GRADE_EXAMPLES
from scoring.schema import GradeRequest
from server.api.deps import RecorderDep, ServiceDep
from server.core.security import require_api_key
from server.schemas import ERROR_RESPONSES, ServedReport, served

router = APIRouter(tags=["grading"], dependencies=[Depends(require_api_key)])


@router.post("/grade", response_model=ServedReport, responses=ERROR_RESPONSES)
async def grade(
    request: Annotated[GradeRequest, Body(openapi_examples=GRADE_EXAMPLES)],
    service: ServiceDep,
    recorder: RecorderDep,
) -> ServedReport:
    """Grade one step-by-step solution: score, step labels, Tree-of-Error, answer check.
    The grade is stored (`meta.grade_id`) before the answer is sent."""
    report = await service.grade(request, memory=await recorder.memory(request))
    [grade_id] = await recorder.keep([(request, report)])
    return served(report, grade_id)
