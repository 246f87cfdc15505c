"""`prepare`: language, problem type, the final answer and its symbolic check (docs/architecture.md 3).

An empty solution (docs/scoring.md "Empty solutions") is decided here: nothing to extract, the answer is
wrong when there is a reference, and no later node asks a model about it.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import gold_answers, reference_steps, solution_text
from agent.state import GradeState
from scoring.answer.compare import AnswerCheck, check_answer
from scoring.answer.verdict import answer_verdict, answer_warnings
from scoring.judge.guard import Guard
from scoring.steps.language import detect_language
from scoring.steps.problem_type import detect_problem_type

EMPTY_SOLUTION = "empty solution: nothing to grade"


def compares_answer(state: GradeState, ctx: Context) -> bool:
    """Whether `prepare` will compare an answer with a reference (math-verify's worker, which may
    take up to the answer timeout); without a reference it only reads the text."""
    return bool(gold_answers(state)) and not state["request"].is_empty()


def prepare(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: language, problem type, answer check and mode, read once for every later node."""
    request = state["request"]
    guard = Guard()
    text = solution_text(request)
    language = request.language
    if language == "auto":
        language = guard.run("prepare.language", detect_language, f"{request.problem}\n{text}",
                             default="en")
    problem_type = request.problem_type or guard.run(
        "prepare.problem_type", detect_problem_type, request.problem, default="calculation")
    gold = gold_answers(state)
    empty = request.is_empty()
    timeout = runtime.context.answer_timeout
    if empty:
        check = AnswerCheck(None, False if gold else None, False)
        warnings = [EMPTY_SOLUTION]
    else:
        checked = guard.run("prepare.answer", check_answer, text, gold, timeout=timeout,
                            problem=request.problem, left_out=runtime.context.answer_left_out,
                            guess=problem_type != "proof", default=None)
        # A failed check is reported as such; "no answer found" would mislead.
        warnings = answer_warnings(checked, gold, timeout) if checked else []
        check = checked or AnswerCheck(None, None, False)
    answer = answer_verdict(check, gold)
    return {
        "use_llm": request.mode != "offline" and runtime.context.llm is not None and not empty,
        "language": language,
        "problem_type": problem_type,
        "answer": answer,
        "reference_steps": reference_steps(request),
        "warnings": warnings,
        "check_failures": guard.failures,
    }
