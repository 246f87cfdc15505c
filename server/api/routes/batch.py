"""POST /grade/batch: many items graded concurrently; results in order, failures per item."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends

from example_requests import BATCH_EXAMPLES
from scoring.schema import GradeRequest
from server.api.deps import RecorderDep, ServiceDep, SettingsDep
from server.core.errors import ApiError
from server.core.security import require_api_key
from server.schemas import ERROR_RESPONSES, BatchRequest, BatchResponse, RejectedItem, served

router = APIRouter(tags=["grading"], dependencies=[Depends(require_api_key)])


@router.post("/grade/batch", response_model=BatchResponse, responses=ERROR_RESPONSES)
async def grade_batch(
    batch: Annotated[BatchRequest, Body(openapi_examples=BATCH_EXAMPLES)],
    service: ServiceDep,
    settings: SettingsDep,
    recorder: RecorderDep,
) -> BatchResponse:
    """Grade up to STEPGRADE_BATCH_MAX_ITEMS solutions; one item failing fails only itself.
    The graded items are stored (`meta.grade_id`) in one transaction before the answer is sent."""
    if len(batch.items) > settings.batch_max_items:
        raise ApiError(
            422,
            "too_many_items",
            f"items: at most {settings.batch_max_items} items per batch, got {len(batch.items)}",
            "items",
        )
    results = await service.grade_many(
        batch.items,
        [await recorder.memory(r) if isinstance(r, GradeRequest) else None for r in batch.items],
    )
    graded = [(item, item.report) for item in results if item.report is not None]
    ids = await recorder.keep(
        [(_request(batch.items[item.index]), report) for item, report in graded]
    )
    for (item, report), grade_id in zip(graded, ids, strict=True):
        item.report = served(report, grade_id)
    failed = sum(1 for r in results if r.error is not None)
    return BatchResponse(results=results, succeeded=len(results) - failed, failed=failed)


def _request(entry: GradeRequest | RejectedItem) -> GradeRequest:
    """A graded item's request (only a valid GradeRequest gets a report)."""
    assert isinstance(entry, GradeRequest)
    return entry
