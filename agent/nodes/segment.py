"""`segment`: the solution's steps; given `solution_steps`, segmentation is skipped.

LLM mode asks for `segmentation`; with `fused` it asks for `fused_judgement` instead, which also
labels the steps: one call in all. When that call fails, the steps and the labels both come
from the offline twins: no second judgement call follows (`score_steps` knows).
"""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import fused_call, grading_llm, judge_request
from agent.llm.fallback import degraded
from agent.llm.operations import judge_fused, segment_solution
from agent.llm.records import LlmError
from agent.state import GradeState
from scoring.schema import Language
from scoring.steps import cap_steps, segment_steps

COVERAGE_WARN = 0.5


def _offline(solution: str, language: Language) -> tuple[list[str], list[str]]:
    """(steps, warnings); no steps only for an empty solution (docs/scoring.md "Empty solutions")."""
    steps = segment_steps(solution, language) or ([solution.strip()] if solution.strip() else [])
    return cap_steps(steps)


def _coverage_warnings(solution: str, steps: list[str]) -> list[str]:
    covered = sum(len("".join(s.split())) for s in steps)
    total = len("".join(solution.split()))
    if total and covered / total < COVERAGE_WARN:
        return [f"segmentation: the steps cover only {covered}/{total} characters of the solution"]
    return []


async def segment(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: the solution's steps, as given, by the model, or by the offline splitter."""
    request = state["request"]
    if request.solution_steps is not None:
        return {"steps": [s.strip() for s in request.solution_steps if s.strip()]}
    solution = request.solution or ""
    llm = grading_llm(state, runtime.context)
    if llm is None:
        steps, warnings = await asyncio.to_thread(_offline, solution, request.language)
        return {"steps": steps, "warnings": warnings}
    run = runtime.context.run
    warnings = []
    try:
        if fused_call(request):
            steps, verdicts = await judge_fused(llm, run, judge_request(state), solution, warnings)
            update: dict[str, Any] = {"steps": steps, "llm_verdicts": verdicts}
        else:
            steps = await segment_solution(llm, run, request.problem, solution, state["language"])
            update = {"steps": steps}
    except LlmError as err:
        twin = "segmentation and judge" if fused_call(request) else "segmentation"
        steps, capped = await asyncio.to_thread(_offline, solution, request.language)
        fallback = degraded(err, twin)
        return {**fallback, "steps": steps, "warnings": fallback["warnings"] + capped}
    return {**update, "warnings": warnings + _coverage_warnings(solution, steps)}
