"""`collect_evidence`: every offline check, run once per grade (docs/architecture.md 4.10).

It runs beside `score_steps`, so in LLM mode the checks work while the model is being asked
instead of after it answers; offline it is the judge's only reading of the solution. `verify`
turns what it found into labels.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import judge_input
from agent.state import GradeState
from scoring.judge import Guard, collect_findings


def collect_evidence(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: the deterministic checks' findings on the steps."""
    guard = Guard()
    evidence = collect_findings(judge_input(state), guard=guard)
    return {"evidence": evidence, "check_failures": guard.failures}
