"""`verify`: the one decision: findings (and, in LLM mode, the model's labels) become labels.

Offline, the labels follow the calibrated posterior of each step. In LLM mode the model's label
is one more source with the reliability the context sets (`JudgeConfig.reliability`): a label
changes only where the posterior crosses the threshold against it, and every change or
disagreement is a warning (DESIGN.md 4.10). Parts of a long solution whose model call failed are
labelled from the evidence alone.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import judge_input
from agent.state import GradeState
from scoring.judge import decide


def verify(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    config = runtime.context.judge
    model = state.get("verdicts") if state.get("judged_by") == "llm" else None
    verdicts, warnings = decide(judge_input(state), state["evidence"], config.calibration, model,
                                config.reliability, config.decide)
    return {"verdicts": verdicts, "warnings": warnings}
