"""What the LLM step judges are told besides the steps (shared by `segment` and `score_steps`)."""

from __future__ import annotations

from agent.llm.operations import JudgeRequest
from agent.nodes.align import reference_steps
from agent.state import GradeState


def judge_request(state: GradeState) -> JudgeRequest:
    request = state["request"]
    return JudgeRequest(
        problem=request.problem,
        problem_type=state["problem_type"],
        language=state["language"],
        references=request.gold_answers(),
        reference_steps=reference_steps(state),
        modules=request.modules,
    )
