"""`collect_evidence`: the deterministic verdicts `verify` checks model labels against.

It runs beside `score_steps`, so in LLM mode the offline judge works while the model is being
asked instead of after it answers: the evidence is off the critical path of a grade. Offline,
the judge's own labels are the evidence and nothing is collected.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import judge_input
from agent.state import GradeState
from scoring.judge import judge_steps


def collect_evidence(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    if not state.get("use_llm") or runtime.context.llm is None:
        return {}
    return {"evidence": judge_steps(judge_input(state), runtime.context.judge)}
