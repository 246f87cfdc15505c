"""`score_chunk`: one part of a long solution, judged in its own call and fanned out with `Send`.

A single `step_judgement` answer for a very long solution risks truncation (finish_reason
"length") and long tail latency; parts judged in parallel keep the critical path at two round
trips. Every call still sees all steps for context and judges only its own span; `score_steps`
joins the parts. A part whose call fails leaves its steps to the evidence alone (`verify`).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send

from agent.context import Context
from agent.inputs import grading_llm, judge_request
from agent.llm.fallback import degraded
from agent.llm.operations import judge_steps as llm_judge_steps
from agent.llm.records import LlmError
from agent.state import ChunkState, ChunkVerdicts, GradeState


def spans(n_steps: int, size: int) -> list[tuple[int, int]]:
    """1-based inclusive spans of at most `size` steps covering 1..n_steps."""
    return [(a, min(a + size - 1, n_steps)) for a in range(1, n_steps + 1, size)]


def chunk_sends(state: GradeState, size: int) -> list[Send]:
    """One `score_chunk` task per span of at most `size` steps, so long solutions are judged in
    parallel."""
    return [
        Send("score_chunk", {"state": state, "span": span})
        for span in spans(len(state["steps"]), size)
    ]


async def score_chunk(payload: ChunkState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: the model's verdicts on one span of steps; a failure degrades that span only."""
    state, (first, last) = payload["state"], payload["span"]
    context = runtime.context
    llm = grading_llm(state, context)
    if llm is None:
        raise RuntimeError("score_chunk is only routed to in LLM mode")
    warnings: list[str] = []
    try:
        verdicts = await llm_judge_steps(
            llm, context.run, judge_request(state), state["steps"], warnings, (first, last)
        )
    except LlmError as err:
        update = degraded(err, f"judge for steps {first}-{last}")
        return {**update, "chunks": [ChunkVerdicts(first, [None] * (last - first + 1), False)]}
    return {"chunks": [ChunkVerdicts(first, list(verdicts), True)], "warnings": warnings}
