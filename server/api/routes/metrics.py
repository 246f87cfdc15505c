"""GET /metrics: Prometheus text exposition of this app's registry."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from server.api.deps import MetricsDep

router = APIRouter(tags=["health"])


@router.get(
    "/metrics",
    response_class=Response,
    responses={
        200: {
            "description": "Prometheus text format.",
            "content": {"text/plain": {"example": "stepgrade_http_requests_total{...} 3.0\n"}},
        }
    },
)
async def metrics(m: MetricsDep) -> Response:
    """Requests, latency histograms, grades, LLM calls and tokens, degraded grades."""
    return Response(generate_latest(m.registry), media_type=CONTENT_TYPE_LATEST)
