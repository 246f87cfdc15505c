"""`align`: ReAlign's alignment of the solution steps to the reference steps, when there are any."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.state import GradeState
from scoring.align import align
from scoring.embed import similarity_matrix
from scoring.segment import segment_steps


def reference_steps(state: GradeState) -> list[str]:
    """The request's reference steps, or its reference solution segmented offline."""
    request = state["request"]
    if request.reference_steps is not None:
        return [s.strip() for s in request.reference_steps if s.strip()]
    if request.reference_solution:
        return segment_steps(request.reference_solution, request.language)
    return []


def align_steps(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    difficulty = state.get("difficulty")
    references = reference_steps(state)
    if not references or (difficulty is not None and not difficulty.process_evaluation_needed):
        return {"alignment": None}
    ctx = runtime.context
    similarity = similarity_matrix(references, state["steps"], ctx.embed, ctx.embedder)
    return {"alignment": align(similarity, ctx.align)}
