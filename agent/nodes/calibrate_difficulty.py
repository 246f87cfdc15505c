"""`calibrate_difficulty`: StepMathAgent's difficulty module, and the problem type when not given.

In LLM mode the model rates the level (Table 2: knowledge scope x steps) and classifies the problem
in one `difficulty` call that runs beside `segment`, so it costs no extra round trip; it is made
when the difficulty module is on or the request leaves `problem_type` to the agent. This node
makes the one "simple problem" decision of the grade (`evaluate_process`). For a solution that
addressed the grader the model's "simple" (the answer alone scores) counts only where the
offline calibration agrees (docs/injection.md).
"""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import grading_llm, solution_text
from agent.llm.fallback import degraded
from agent.llm.operations import judge_difficulty, to_difficulty_verdict
from agent.llm.records import LlmError
from agent.state import GradeState
from scoring.steps import calibrate_difficulty as calibrate
from scoring.steps import segment_steps
from scoring.verdict import DifficultyVerdict


def _decided(difficulty: DifficultyVerdict | None) -> dict[str, Any]:
    evaluate = difficulty is None or difficulty.process_evaluation_needed
    return {"difficulty": difficulty, "evaluate_process": evaluate}


def _offline(state: GradeState, context: Context) -> dict[str, Any]:
    request = state["request"]
    # Runs beside `segment`, so it counts steps itself rather than waiting for them.
    n_steps = len(request.solution_steps or segment_steps(request.solution or "", request.language))
    return _decided(calibrate(request.problem, n_steps, state["problem_type"], context.difficulty))


async def calibrate_difficulty(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: the problem's difficulty, by the model or offline."""
    request, context = state["request"], runtime.context
    llm = grading_llm(state, context)
    if llm is None or not (request.modules.difficulty or request.problem_type is None):
        if not request.modules.difficulty:
            return _decided(None)
        return await asyncio.to_thread(_offline, state, context)
    try:
        answer = await judge_difficulty(
            llm, context.run, request.problem, solution_text(request), state["language"]
        )
    except LlmError as err:
        twin = _decided(None)
        if request.modules.difficulty:
            twin = await asyncio.to_thread(_offline, state, context)
        return {**twin, **degraded(err, "difficulty calibration")}
    update = _decided(to_difficulty_verdict(answer) if request.modules.difficulty else None)
    if state.get("addressed") and not update["evaluate_process"]:
        checked = await asyncio.to_thread(_offline, state, context)
        if checked["evaluate_process"]:
            update = {
                **checked,
                "warnings": [
                    (
                        "difficulty: the model rates the problem simple (the answer alone would score); "
                        "not counted: the solution addresses the grader and the offline calibration "
                        "does not"
                    )
                ],
            }
    if request.problem_type is None:
        update["problem_type"] = answer.problem_type
    return update
