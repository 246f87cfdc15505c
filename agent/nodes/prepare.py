"""`prepare`: language, problem type, the final answer and its symbolic check (docs/architecture.md 3).

First the text the solution addresses to the grader is cut out (docs/injection.md): every later
node, and every model call, reads the solution as if it were absent; `aggregate` reports the
pieces as steps of their own. An empty solution (docs/scoring.md "Empty solutions") is decided
here: nothing to extract, the answer is wrong when there is a reference, and no later node asks
a model about it. A solution that held nothing but text addressed to the grader is one.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import gold_answers, reference_steps, solution_text
from agent.state import GradeState
from scoring.answer import AnswerCheck, answer_verdict, answer_warnings, check_answer
from scoring.judge import AddressedPiece, Guard, strip_steps, strip_text
from scoring.schema import GradeRequest
from scoring.steps import detect_language, detect_problem_type

EMPTY_SOLUTION = "empty solution: nothing to grade"


def compares_answer(state: GradeState, ctx: Context) -> bool:
    """Whether `prepare` will compare an answer with a reference (math-verify's worker, which may
    take up to the answer timeout); without a reference it only reads the text."""
    return bool(gold_answers(state)) and not state["request"].is_empty()


def without_addressed(request: GradeRequest) -> tuple[GradeRequest, tuple[AddressedPiece, ...]]:
    """The request as graded: its solution without the text it addresses to the grader, and
    the pieces cut (`scoring.judge.stripping`)."""
    if request.solution_steps is not None:
        kept, pieces = strip_steps(request.solution_steps)
        update: dict[str, Any] = {"solution_steps": kept}
    else:
        stripped = strip_text(request.solution or "")
        update, pieces = {"solution": stripped.text}, stripped.pieces
    return (request.model_copy(update=update) if pieces else request), pieces


def prepare(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: the solution as graded, language, problem type, answer check and mode, read
    once for every later node."""
    guard = Guard()
    as_given: tuple[GradeRequest, tuple[AddressedPiece, ...]] = (state["request"], ())
    request, addressed = guard.run(
        "prepare.addressed", without_addressed, state["request"], default=as_given
    )
    text = solution_text(request)
    language = request.language
    if language == "auto":
        language = guard.run(
            "prepare.language", detect_language, f"{request.problem}\n{text}", default="en"
        )
    problem_type = request.problem_type or guard.run(
        "prepare.problem_type", detect_problem_type, request.problem, default="calculation"
    )
    gold = gold_answers(state)
    empty = request.is_empty()
    timeout = runtime.context.answer_timeout
    if empty:
        check = AnswerCheck(None, False if gold else None, False)
        warnings = [EMPTY_SOLUTION]
    else:
        checked = guard.run(
            "prepare.answer",
            check_answer,
            text,
            gold,
            timeout=timeout,
            problem=request.problem,
            left_out=runtime.context.answer_left_out,
            guess=problem_type != "proof",
            default=None,
        )
        # A failed check is reported as such; "no answer found" would mislead.
        warnings = answer_warnings(checked, gold, timeout) if checked else []
        check = checked or AnswerCheck(None, None, False)
    answer = answer_verdict(check, gold)
    return {
        "request": request,
        "addressed": addressed,
        "graded_text": text,
        "use_llm": request.mode != "offline" and runtime.context.llm is not None and not empty,
        "language": language,
        "problem_type": problem_type,
        "answer": answer,
        "reference_steps": reference_steps(request),
        "warnings": warnings,
        "check_failures": guard.failures,
    }
