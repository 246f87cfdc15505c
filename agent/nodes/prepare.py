"""`prepare`: language, problem type, the final answer and its symbolic check (DESIGN.md 3)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from scoring.answer import extract_answer, is_equivalent

from agent.context import Context
from agent.state import GradeState
from scoring.language import detect_language
from scoring.problem_type import detect_problem_type
from scoring.verdict import AnswerVerdict


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
    gold = request.gold_answers()
    extracted = extract_answer(text)
    warnings: list[str] = []
    symbolic: bool | None = None
    if gold and extracted is not None:
        symbolic = is_equivalent(gold, extracted, timeout=runtime.context.answer_timeout)
        if symbolic is None:
            warnings.append(f"could not decide whether {extracted!r} equals the reference answer")
    elif gold:
        warnings.append("no final answer found in the solution")
    answer = AnswerVerdict(extracted=extracted, reference=tuple(gold), symbolic=symbolic)
    return {
        "language": language,
        "problem_type": problem_type,
        "answer": answer,
        "warnings": warnings,
    }
