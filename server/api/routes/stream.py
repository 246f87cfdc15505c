"""POST /grade/stream: the same grading as Server-Sent Events, one event per finished node.

Events: `accepted`, then `node` (`{"node", "ms", "steps" | "labels" | "answer" | "tree" ...}`)
as each graph node finishes, then `report` (the full GradeReport) or `error`
(`{"code", "message", "field"}`). A UI can show the steps and labels as they arrive.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends
from fastapi.responses import StreamingResponse

from example_requests import GRADE_EXAMPLES
from scoring.schema import GradeRequest
from server.api.deps import RecorderDep, ServiceDep
from server.core.errors import ApiError
from server.core.security import require_api_key
from server.schemas import ERROR_RESPONSES

router = APIRouter(tags=["grading"], dependencies=[Depends(require_api_key)])

_SSE_DOC: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "`text/event-stream`: `accepted`, `node`..., then `report` or `error`.",
        "content": {
            "text/event-stream": {
                "example": (
                    'event: accepted\ndata: {"mode": "offline"}\n\n'
                    'event: node\ndata: {"node": "segment", "ms": 3.1, "steps": [{"index": 1, '
                    '"text": "..."}]}\n\n'
                    'event: report\ndata: {"score": 0, "steps": [...], "meta": {...}}\n\n'
                )
            }
        },
    },
    **ERROR_RESPONSES,
}


def _sse(event: str, data: dict[str, Any], number: int) -> bytes:
    body = json.dumps(data, ensure_ascii=False, default=str)
    return f"id: {number}\nevent: {event}\ndata: {body}\n\n".encode()


@router.post("/grade/stream", response_class=StreamingResponse, responses=_SSE_DOC)
async def grade_stream(
    request: Annotated[GradeRequest, Body(openapi_examples=GRADE_EXAMPLES)],
    service: ServiceDep,
    recorder: RecorderDep,
) -> StreamingResponse:
    """Grade one solution and stream progress as Server-Sent Events; the `report` event's
    grade is stored (`meta.grade_id`) before the event is sent."""
    service.check_mode(request)  # a plain 422 before the stream starts, not an event

    async def events() -> AsyncIterator[bytes]:
        number = 0
        async for event, data in service.stream(request, await recorder.memory(request)):
            if event == "report":
                try:
                    [grade_id] = await recorder.keep([(request, data)])
                except ApiError as err:
                    event, data = (
                        "error",
                        {"code": err.code, "message": err.message, "field": err.field},
                    )
                else:
                    if grade_id is not None:
                        data["meta"]["grade_id"] = grade_id
            number += 1
            yield _sse(event, data, number)

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
