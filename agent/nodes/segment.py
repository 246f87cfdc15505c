"""`segment`: the solution's steps; given `solution_steps`, segmentation is skipped.

LLM mode asks for `segmentation`; with `fused` it asks for `fused_judgement` instead, which also
labels the steps, so `score_steps` has nothing left to ask (one round trip in all).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.llm.fallback import degraded
from agent.llm.operations import judge_fused, segment_solution
from agent.llm.records import LlmError
from agent.nodes.judge_request import judge_request
from agent.nodes.llm_node import NodeRun
from agent.state import GradeState
from scoring.segment import cap_steps, segment_steps

COVERAGE_WARN = 0.5


def _offline(solution: str, language: str) -> tuple[list[str], list[str]]:
    """(steps, warnings); no steps only for an empty solution (README "Empty solutions")."""
    steps = segment_steps(solution, language) or ([solution.strip()] if solution.strip() else [])
    return cap_steps(steps)


def _coverage_warnings(solution: str, steps: list[str]) -> list[str]:
    covered = sum(len("".join(s.split())) for s in steps)
    total = len("".join(solution.split()))
    if total and covered / total < COVERAGE_WARN:
        return [f"segmentation: the steps cover only {covered}/{total} characters of the solution"]
    return []


def segment(state: GradeState, runtime: Runtime[Context]) -> NodeRun:
    request = state["request"]
    if request.solution_steps is not None:
        return {"steps": [s.strip() for s in request.solution_steps if s.strip()], "warnings": []}
    solution = request.solution or ""
    llm = runtime.context.llm
    if not state.get("use_llm") or llm is None:
        steps, warnings = _offline(solution, request.language)
        return {"steps": steps, "warnings": warnings}
    warnings: list[str] = []
    try:
        if request.fused:
            steps, verdicts, records = yield judge_fused(judge_request(state), solution, warnings)
            update: dict[str, Any] = {"steps": steps, "llm_verdicts": verdicts, "llm_calls": records}
        else:
            steps, records = yield segment_solution(request.problem, solution, state["language"])
            update = {"steps": steps, "llm_calls": records}
    except LlmError as err:
        twin = "judge and segmentation" if request.fused else "segmentation"
        steps, capped = _offline(solution, request.language)
        fallback = degraded(err, twin)
        return {**fallback, "steps": steps, "warnings": fallback["warnings"] + capped}
    return {**update, "warnings": warnings + _coverage_warnings(solution, steps)}
