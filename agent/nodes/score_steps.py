"""`score_steps`: a label, reason and dependencies for every step (offline twin: the judge)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.nodes.align import reference_steps
from agent.state import GradeState
from scoring.judge import JudgeInput, judge_steps


def judge_input(state: GradeState) -> JudgeInput:
    request = state["request"]
    return JudgeInput(
        problem=request.problem,
        steps=state["steps"],
        problem_type=state["problem_type"],
        answer=state["answer"],
        alignment=state.get("alignment"),
        reference_steps=reference_steps(state),
        format_module=request.modules.format,
    )


def score_steps(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    return {
        "verdicts": judge_steps(judge_input(state), runtime.context.judge),
        "judged_by": "offline",
    }
