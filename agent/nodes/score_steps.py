"""`score_steps`: a label, reason and dependencies for every step (offline twin: the judge).

LLM mode asks for `step_judgement` (REPA-style against the reference steps when there are any,
answer-guided otherwise); with `fused` the labels already came with the segmentation; for a long
solution the parts judged by `score_chunk` are joined here.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.llm.fallback import degraded
from agent.llm.operations import judge_steps as llm_judge_steps
from agent.llm.records import LlmError
from agent.nodes.align import reference_steps
from agent.nodes.judge_request import judge_request
from agent.nodes.llm_node import NodeRun
from agent.state import GradeState
from scoring.guard import Guard
from scoring.judge import JudgeInput, judge_steps


def judge_input(state: GradeState) -> JudgeInput:
    request = state["request"]
    return JudgeInput(
        problem=request.problem,
        steps=state["steps"],
        problem_type=state["problem_type"],
        answer=state["answer"],
        alignment=state.get("alignment"),
        reference_steps=reference_steps(state),
        problem_similarity=state.get("problem_similarity"),
        format_module=request.modules.format,
    )


def _offline(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    guard = Guard()
    verdicts = judge_steps(judge_input(state), runtime.context.judge, guard)
    return {"verdicts": verdicts, "judged_by": "offline", "check_failures": guard.failures}


def _joined(state: GradeState) -> dict[str, Any]:
    parts = sorted(state["chunks"], key=lambda c: c.first)
    verdicts = [v for part in parts for v in part.verdicts]
    if len(verdicts) != len(state["steps"]):
        raise RuntimeError(f"chunks cover {len(verdicts)} of {len(state['steps'])} steps")
    return {"verdicts": verdicts, "judged_by": "llm" if any(p.by_llm for p in parts) else "offline"}


def score_steps(state: GradeState, runtime: Runtime[Context]) -> NodeRun:
    if state.get("chunks"):
        return _joined(state)
    fused = state.get("llm_verdicts")
    if fused is not None:
        return {"verdicts": fused, "judged_by": "llm"}
    llm = runtime.context.llm
    if not state.get("use_llm") or llm is None:
        return _offline(state, runtime)
    warnings: list[str] = []
    try:
        verdicts, records = yield llm_judge_steps(judge_request(state), state["steps"], warnings)
    except LlmError as err:
        return {**_offline(state, runtime), **degraded(err, "judge")}
    return {"verdicts": verdicts, "judged_by": "llm", "llm_calls": records, "warnings": warnings}
