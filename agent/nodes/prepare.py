"""`prepare`: language, problem type, the final answer and its symbolic check (DESIGN.md 3)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.state import GradeState
from scoring.answer_verdict import symbolic_verdict
from scoring.language import detect_language
from scoring.problem_type import detect_problem_type


def solution_text(state: GradeState) -> str:
    request = state["request"]
    if request.solution_steps is not None:
        return "\n".join(request.solution_steps)
    return request.solution or ""


def prepare(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    request = state["request"]
    text = solution_text(state)
    language = request.language
    if language == "auto":
        language = detect_language(f"{request.problem}\n{text}")
    problem_type = request.problem_type or detect_problem_type(request.problem)
    answer, warnings = symbolic_verdict(text, request.gold_answers(), runtime.context.answer_timeout)
    return {
        "use_llm": request.mode != "offline" and runtime.context.llm is not None,
        "language": language,
        "problem_type": problem_type,
        "answer": answer,
        "warnings": warnings,
    }
