"""`verify`: cross-checks labels that came from a model with the deterministic evidence."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.nodes.score_steps import judge_input
from agent.state import GradeState
from scoring.crosscheck import cross_check
from scoring.judge import judge_steps


def verify(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    if state.get("judged_by", "offline") == "offline":
        # The offline judge's labels are the evidence itself: nothing to cross-check.
        return {}
    evidence = judge_steps(judge_input(state), runtime.context.judge)
    verdicts, warnings = cross_check(state["verdicts"], evidence)
    return {"verdicts": verdicts, "warnings": warnings}
