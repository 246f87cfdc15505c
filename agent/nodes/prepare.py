"""`prepare`: language, problem type, the final answer and its symbolic check (DESIGN.md 3).

An empty solution (README "Empty solutions") is decided here: nothing to extract, the answer is
wrong when there is a reference, and no later node asks a model about it.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.state import GradeState
from scoring.answer import AnswerCheck, check_answer
from scoring.guard import Guard
from scoring.language import detect_language
from scoring.problem_type import detect_problem_type
from scoring.verdict import AnswerVerdict

EMPTY_SOLUTION = "empty solution: nothing to grade"


def solution_text(state: GradeState) -> str:
    request = state["request"]
    if request.solution_steps is not None:
        return "\n".join(request.solution_steps)
    return request.solution or ""


def _shown(answer: str | None, limit: int = 80) -> str:
    """The answer as a warning shows it: quoted, and clipped when long (it may be 200,000 chars)."""
    text = repr(answer)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 5]}...{text[-1]} ({len(answer or '')} characters)"


def _answer_warnings(check: AnswerCheck, gold: list[str], timeout: float) -> list[str]:
    if not gold:
        return []
    if check.timed_out:
        return [(f"answer check timed out after {timeout:g} s of CPU: whether "
                 f"{_shown(check.extracted)} equals the reference is left undecided")]
    if check.extracted is None:
        return ["no final answer found in the solution"]
    if check.correct is None:
        return [f"could not decide whether {_shown(check.extracted)} equals the reference answer"]
    return []


def prepare(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    request = state["request"]
    guard = Guard()
    text = solution_text(state)
    language = request.language
    if language == "auto":
        language = guard.run("prepare.language", detect_language, f"{request.problem}\n{text}",
                             default="en")
    problem_type = request.problem_type or guard.run(
        "prepare.problem_type", detect_problem_type, request.problem, default="calculation")
    gold = request.gold_answers()
    empty = request.is_empty()
    timeout = runtime.context.answer_timeout
    if empty:
        check = AnswerCheck(None, False if gold else None, False)
        warnings = [EMPTY_SOLUTION]
    else:
        check = guard.run("prepare.answer", check_answer, text, gold, timeout=timeout,
                          default=None)
        # A failed check is reported as such; "no answer found" would mislead.
        warnings = _answer_warnings(check, gold, timeout) if check else []
        check = check or AnswerCheck(None, None, False)
    answer = AnswerVerdict(
        extracted=check.extracted, reference=tuple(gold), symbolic=check.correct,
        anchored=check.anchored,
    )
    return {
        "use_llm": request.mode != "offline" and runtime.context.llm is not None and not empty,
        "language": language,
        "problem_type": problem_type,
        "answer": answer,
        "warnings": warnings,
        "check_failures": guard.failures,
    }
