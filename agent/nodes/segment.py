"""`segment`: the solution's steps; given `solution_steps`, segmentation is skipped."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.state import GradeState
from scoring.segment import segment_steps


def segment(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    request = state["request"]
    if request.solution_steps is not None:
        steps = [s.strip() for s in request.solution_steps if s.strip()]
        return {"steps": steps, "warnings": []}
    steps = segment_steps(request.solution or "", request.language)
    if not steps:
        steps = [(request.solution or "").strip()]
    return {"steps": steps, "warnings": []}
