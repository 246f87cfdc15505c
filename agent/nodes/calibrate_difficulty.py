"""`calibrate_difficulty`: StepMathAgent's difficulty module, and the problem type when not given.

In LLM mode the model rates the level (Table 2: knowledge scope x steps) and classifies the problem
in one `difficulty` call that runs beside `segment`, so it costs no extra round trip; it is made
when the difficulty module is on or the request leaves `problem_type` to the agent.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.llm.fallback import degraded
from agent.llm.operations import judge_difficulty, to_difficulty_verdict
from agent.llm.records import LlmError
from agent.nodes.llm_node import NodeRun
from agent.nodes.prepare import solution_text
from agent.state import GradeState
from scoring.difficulty import calibrate_difficulty as calibrate
from scoring.segment import segment_steps


def _offline(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    request = state["request"]
    if not request.modules.difficulty:
        return {"difficulty": None}
    # Runs beside `segment`, so it counts steps itself rather than waiting for them.
    n_steps = len(request.solution_steps or segment_steps(request.solution or "", request.language))
    return {"difficulty": calibrate(request.problem, n_steps, state["problem_type"],
                                    runtime.context.difficulty)}


def calibrate_difficulty(state: GradeState, runtime: Runtime[Context]) -> NodeRun:
    request = state["request"]
    llm = runtime.context.llm
    wanted = request.modules.difficulty or request.problem_type is None
    if not (state.get("use_llm") and llm is not None and wanted):
        return _offline(state, runtime)
    try:
        answer, records = yield judge_difficulty(request.problem, solution_text(state), state["language"])
    except LlmError as err:
        return {**_offline(state, runtime), **degraded(err, "difficulty calibration")}
    update: dict[str, Any] = {
        "difficulty": to_difficulty_verdict(answer) if request.modules.difficulty else None,
        "llm_calls": records,
    }
    if request.problem_type is None:
        update["problem_type"] = answer.problem_type
    return update
