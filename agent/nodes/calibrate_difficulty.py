"""`calibrate_difficulty`: StepMathAgent's difficulty module, when the request turns it on."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.state import GradeState
from scoring.difficulty import calibrate_difficulty as calibrate
from scoring.problem_type import detect_problem_type
from scoring.segment import segment_steps


def calibrate_difficulty(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    request = state["request"]
    if not request.modules.difficulty:
        return {"difficulty": None}
    # Runs beside `segment`, so it counts steps itself rather than waiting for them.
    n_steps = len(request.solution_steps or segment_steps(request.solution or "", request.language))
    problem_type = request.problem_type or detect_problem_type(request.problem)
    return {"difficulty": calibrate(request.problem, n_steps, problem_type, runtime.context.difficulty)}
