"""`prepare`: language, problem type, the final answer and its symbolic check (DESIGN.md 3)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import reference_steps, solution_text
from agent.state import GradeState
from scoring.answer import check_answer
from scoring.language import detect_language
from scoring.problem_type import detect_problem_type
from scoring.verdict import AnswerVerdict


def prepare(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    request = state["request"]
    text = solution_text(request)
    language = request.language
    if language == "auto":
        language = detect_language(f"{request.problem}\n{text}")
    problem_type = request.problem_type or detect_problem_type(request.problem)
    gold = request.gold_answers()
    check = check_answer(text, gold, timeout=runtime.context.answer_timeout)
    warnings: list[str] = []
    if gold and check.extracted is None:
        warnings.append("no final answer found in the solution")
    elif gold and check.correct is None:
        warnings.append(f"could not decide whether {check.extracted!r} equals the reference answer")
    answer = AnswerVerdict(
        extracted=check.extracted, reference=tuple(gold), symbolic=check.correct,
        anchored=check.anchored,
    )
    return {
        "use_llm": request.mode != "offline" and runtime.context.llm is not None,
        "language": language,
        "problem_type": problem_type,
        "answer": answer,
        "reference_steps": reference_steps(request),
        "warnings": warnings,
    }
