"""What the offline judge reads, built from the graph's state (shared by several nodes)."""

from __future__ import annotations

from agent.nodes.align import reference_steps
from agent.state import GradeState
from scoring.judge import JudgeInput


def judge_input(state: GradeState) -> JudgeInput:
    request = state["request"]
    return JudgeInput(
        problem=request.problem,
        steps=state["steps"],
        problem_type=state["problem_type"],
        answer=state["answer"],
        alignment=state.get("alignment"),
        reference_steps=reference_steps(state),
        problem_similarity=state.get("problem_similarity"),
        format_module=request.modules.format,
        language=state["language"],
    )
