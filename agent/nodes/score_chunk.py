"""`score_chunk`: one part of a long solution, judged in its own call and fanned out with `Send`.

A single `step_judgement` answer for a very long solution risks truncation (finish_reason
"length") and long tail latency; parts judged in parallel keep the critical path at two round
trips. Every call still sees all steps for context and judges only its own span; `score_steps`
joins the parts. A part that fails falls back to the offline judge for its steps alone.
"""

from __future__ import annotations

from langgraph.runtime import Runtime
from langgraph.types import Send

from agent.context import Context
from agent.llm.fallback import degraded
from agent.llm.operations import judge_steps as llm_judge_steps
from agent.llm.records import LlmError
from agent.nodes.judge_request import judge_request
from agent.nodes.llm_node import NodeRun
from agent.nodes.score_steps import judge_input
from agent.state import ChunkState, ChunkVerdicts, GradeState
from scoring.guard import Guard
from scoring.judge import judge_steps


def spans(n_steps: int, size: int) -> list[tuple[int, int]]:
    """1-based inclusive spans of at most `size` steps covering 1..n_steps."""
    return [(a, min(a + size - 1, n_steps)) for a in range(1, n_steps + 1, size)]


def chunk_sends(state: GradeState, size: int) -> list[Send]:
    return [Send("score_chunk", {"state": state, "span": span}) for span in spans(len(state["steps"]), size)]


def score_chunk(payload: ChunkState, runtime: Runtime[Context]) -> NodeRun:
    state, (first, last) = payload["state"], payload["span"]
    llm = runtime.context.llm
    if llm is None:
        raise RuntimeError("score_chunk is only routed to in LLM mode")
    warnings: list[str] = []
    try:
        verdicts, records = yield llm_judge_steps(judge_request(state), state["steps"], warnings, (first, last))
    except LlmError as err:
        guard = Guard()
        offline = judge_steps(judge_input(state), runtime.context.judge, guard)[first - 1 : last]
        update = degraded(err, f"judge for steps {first}-{last}")
        return {**update, "chunks": [ChunkVerdicts(first, offline, False)],
                "check_failures": guard.failures}
    return {"chunks": [ChunkVerdicts(first, verdicts, True)], "llm_calls": records, "warnings": warnings}
