"""`verify`: the one decision: findings (and, in LLM mode, the model's labels) become labels.

Offline, the labels follow the calibrated posterior of each step. In LLM mode the model's label
is one more source with the reliability the context sets for the solution's language
(`JudgeConfig.reliability_for`): a label
changes only where the posterior crosses the threshold against it, and every change or
disagreement is a warning (docs/architecture.md 4.10). Parts of a long solution whose model call failed are
labelled from the evidence alone. A solution that addressed the grader takes from the model only
what costs it points (`scoring.judge.decide.addressed`, docs/injection.md).
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import judge_input
from agent.state import GradeState
from scoring.judge import decide, no_gain


def verify(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Graph node: the step verdicts checked against the deterministic findings."""
    config = runtime.context.judge
    model = state.get("verdicts") if state.get("judged_by") == "llm" else None
    inp = judge_input(state)
    reliability = config.reliability_for(inp.language)
    decision = decide(inp, state["evidence"], config.calibration, model, reliability, config.decide)
    verdicts, warnings = decision.verdicts, decision.warnings
    if model is not None and state.get("addressed"):
        checks = decide(
            inp, state["evidence"], config.calibration, None, reliability, config.decide
        ).verdicts
        verdicts, set_aside = no_gain(verdicts, checks, state["request"].modules.simplicity)
        warnings = [*warnings, *set_aside]
    return {"verdicts": verdicts, "warnings": warnings, "first_error": decision.first_error}
