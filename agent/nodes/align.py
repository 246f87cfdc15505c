"""`align`: the embedding work of the graph, in one encode call.

ReAlign's alignment of the solution steps to the reference steps, when there are any, and each
step's similarity to the problem (English only: the default MiniLM model does not read Chinese),
which the judge uses to notice a solution to some other problem.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.state import GradeState
from scoring.align import align, similarity_matrix


def _related(state: GradeState, ctx: Context) -> bool:
    return ctx.judge.relatedness and state.get("language") == "en"


def embeds(state: GradeState, ctx: Context) -> bool:
    """Whether `align_steps` will embed anything (else it answers at once, with no model)."""
    return bool(state["evaluate_process"] and (state["reference_steps"] or _related(state, ctx)))


def align_steps(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: the solution's steps matched to the reference steps."""
    ctx = runtime.context
    if not embeds(state, ctx):
        return {"alignment": None, "problem_similarity": None}
    references = state["reference_steps"]
    steps = state["steps"]
    related = _related(state, ctx)
    problem = [state["request"].problem] if related else []
    matrix = similarity_matrix([*problem, *references], steps, ctx.embed, ctx.embedder)
    return {
        "alignment": align(matrix[len(problem) :], ctx.align) if references else None,
        "problem_similarity": [float(x) for x in matrix[0]] if related else None,
    }
