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
from scoring.align import align
from scoring.embed import similarity_matrix


def align_steps(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    if not state["evaluate_process"]:
        return {"alignment": None, "problem_similarity": None}
    ctx = runtime.context
    references = state["reference_steps"]
    steps = state["steps"]
    related = ctx.judge.relatedness and state.get("language") == "en"
    if not references and not related:
        return {"alignment": None, "problem_similarity": None}
    problem = [state["request"].problem] if related else []
    matrix = similarity_matrix([*problem, *references], steps, ctx.embed, ctx.embedder)
    return {
        "alignment": align(matrix[len(problem):], ctx.align) if references else None,
        "problem_similarity": [float(x) for x in matrix[0]] if related else None,
    }
