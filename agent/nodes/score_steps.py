"""`score_steps`: the model's label, reason and dependencies for every step.

Offline there is nothing to ask: `verify` labels the steps from the evidence `collect_evidence`
gathered.

LLM mode asks for `step_judgement` (REPA-style against the reference steps when there are any,
answer-guided otherwise); with `fused` the labels came with the segmentation (when that one
call failed, `verify` decides from the evidence alone: no second call); for a long solution the parts judged by
`score_chunk` are joined here.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import fused_call, grading_llm, judge_request
from agent.llm.fallback import degraded
from agent.llm.operations import judge_steps as llm_judge_steps
from agent.llm.records import LlmError
from agent.state import GradeState


def _offline() -> dict[str, Any]:
    """No model labels: `verify` decides every step from the evidence alone."""
    return {"judged_by": "offline"}


def _joined(state: GradeState) -> dict[str, Any]:
    parts = sorted(state["chunks"], key=lambda c: c.first)
    verdicts = [v for part in parts for v in part.verdicts]  # None where a part's call failed
    if len(verdicts) != len(state["steps"]):
        raise RuntimeError(f"chunks cover {len(verdicts)} of {len(state['steps'])} steps")
    return {"verdicts": verdicts, "judged_by": "llm" if any(p.by_llm for p in parts) else "offline"}


async def score_steps(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: every step's verdict, from the chunks, one model call or the offline judge."""
    if state.get("chunks"):
        return _joined(state)
    context = runtime.context
    llm = grading_llm(state, context)
    if llm is not None and fused_call(state["request"]):
        fused = state.get("llm_verdicts")
        if fused is not None:
            return {"verdicts": fused, "judged_by": "llm"}
        llm = None  # the fused call failed and said so: no second call, `verify` decides
    if llm is None:
        return _offline()
    warnings: list[str] = []
    try:
        verdicts = await llm_judge_steps(
            llm, context.run, judge_request(state), state["steps"], warnings
        )
    except LlmError as err:
        return {**_offline(), **degraded(err, "judge")}
    return {"verdicts": verdicts, "judged_by": "llm", "warnings": warnings}
