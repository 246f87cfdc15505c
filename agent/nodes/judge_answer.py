"""`judge_answer`: the LLM half of ReAlign's dual-mode answer verdict.

The decision (`AnswerVerdict.correct`): the symbolic "equal" stands; the model's verdict counts
where the symbolic check could not decide or could not prove equality, but never against two
plain numbers that differ.

Runs beside `segment`. The model sees only the extracted answer and the references, never the
solution, so text in a solution cannot talk it into "equal". It is asked only when the symbolic
check did not already say "equal" (the OR could not change then); both verdicts are reported,
and a disagreement becomes a warning. For a solution that addressed the grader the model's
"equal" counts only where the symbolic check agrees (docs/injection.md): no model verdict that
no check supports raises such a grade.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import grading_llm
from agent.llm.fallback import degraded
from agent.llm.operations import judge_answer as ask
from agent.llm.records import LlmError
from agent.state import GradeState


async def judge_answer(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: the final answer's verdict, by the model where the symbolic check cannot tell."""
    answer = state["answer"]
    llm = grading_llm(state, runtime.context)
    if llm is None or answer.extracted is None or not answer.reference:
        return {}
    if answer.symbolic is True:
        return {}
    request = state["request"]
    try:
        verdict = await ask(
            llm,
            runtime.context.run,
            request.problem,
            answer.extracted,
            answer.reference,
            state["language"],
        )
    except LlmError as err:
        return degraded(err, "symbolic answer check alone")
    if state.get("addressed") and verdict.correct:
        return {
            "warnings": [
                (
                    f"answer: the LLM judge finds {answer.extracted!r} equal to the reference "
                    f"({verdict.reason}); not counted: the solution addresses the grader and the "
                    "symbolic check did not find it equal"
                )
            ]
        }
    update: dict[str, Any] = {
        "answer": replace(answer, llm=verdict.correct, llm_reason=verdict.reason),
    }
    judged = update["answer"]
    if judged.overruled_model:
        update["warnings"] = [
            (
                f"answer: the LLM judge finds {answer.extracted!r} equal to the reference "
                f"({verdict.reason}), but both are plain numbers that differ; the model's word is "
                "set aside"
            )
        ]
    elif answer.symbolic is False and verdict.correct:
        update["warnings"] = [
            (
                f"answer: the symbolic check finds {answer.extracted!r} different from the "
                f"reference, the LLM judge finds it equal ({verdict.reason}); counted correct"
            )
        ]
    return update
