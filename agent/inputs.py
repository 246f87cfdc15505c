"""What several nodes read from the state, built in one place (nodes do not import each other)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from agent.context import Context
from agent.llm.operations import JudgeRequest
from agent.state import GradeState
from scoring.judge import JudgeInput
from scoring.schema import GradeRequest
from scoring.steps import segment_steps

if TYPE_CHECKING:
    from agent.llm.client import LlmClient


def solution_text(request: GradeRequest) -> str:
    """The solution as one text, whether it came whole or as given steps."""
    if request.solution_steps is not None:
        return "\n".join(request.solution_steps)
    return request.solution or ""


def reference_steps(request: GradeRequest) -> list[str]:
    """The request's reference steps, or its reference solution segmented offline (`prepare`
    computes this once into the state)."""
    if request.reference_steps is not None:
        return [s.strip() for s in request.reference_steps if s.strip()]
    if request.reference_solution:
        return segment_steps(request.reference_solution, request.language)
    return []


def gold_answers(state: GradeState) -> list[str]:
    """The request's reference answers, or, when it gives none, the answers of the solutions a
    teacher accepted in the problem's memory (docs/architecture.md 4.12)."""
    given = state["request"].gold_answers()
    memory = state.get("memory")
    return given or (list(memory.answers) if memory else [])


def judge_input(state: GradeState) -> JudgeInput:
    """What the offline judge reads."""
    request = state["request"]
    return JudgeInput(
        problem=request.problem,
        steps=state["steps"],
        problem_type=state["problem_type"],
        answer=state["answer"],
        alignment=state.get("alignment"),
        reference_steps=state["reference_steps"],
        problem_similarity=state.get("problem_similarity"),
        format_module=request.modules.format,
        language=state["language"],
        memory=state.get("memory"),
    )


def judge_request(state: GradeState) -> JudgeRequest:
    """What the LLM step judges are told besides the steps."""
    request = state["request"]
    return JudgeRequest(
        problem=request.problem,
        problem_type=state["problem_type"],
        language=state["language"],
        references=gold_answers(state),
        reference_steps=state["reference_steps"],
        modules=request.modules,
    )


def fused_call(request: GradeRequest) -> bool:
    """The labels come with the segmentation, in one call (or fail with it): no other judge call."""
    return request.fused and request.solution_steps is None


def grading_llm(state: GradeState, context: Context) -> LlmClient | None:
    """The endpoint when this grade uses the model, else None."""
    return context.llm if state.get("use_llm") else None
