"""`verify`: cross-checks labels that came from a model with the deterministic evidence.

Rules (`scoring/crosscheck.py`): a closed equation that evaluates false and a final answer that
differs from the reference are decisive and override the model; every disagreement is a warning.
Two kinds of evidence are only advisory here, both inferences across steps rather than a
closed computation: "contradicts earlier steps" compares a step with relations collected from
earlier steps, and solutions reuse names across cases (x = 0 in one case, x^2 = 1 in the next),
so on StepMathBench it overrode correct human labels in 7 of 200 items; "derivation" says a
step's equation does not follow from the one before it, which misreads steps that restate a
problem condition. Against a model's label they are reported, not enforced; the offline judge
still uses them.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from agent.context import Context
from agent.inputs import judge_input
from agent.state import GradeState
from scoring.crosscheck import cross_check
from scoring.judge import judge_steps
from scoring.verdict import StepVerdict

ADVISORY = frozenset({"contradiction", "derivation"})


def _advisory_only(
    judged: list[StepVerdict], evidence: list[StepVerdict]
) -> tuple[list[StepVerdict], list[str]]:
    """Evidence with advisory findings neutralised, and a warning for each one that disagreed."""
    kept: list[StepVerdict] = []
    warnings: list[str] = []
    for i, (mine, proof) in enumerate(zip(judged, evidence, strict=True), 1):
        if ADVISORY.intersection(proof.error_categories) and proof.label == "incorrect":
            if mine.label != "incorrect":
                warnings.append(f"step {i}: judged {mine.label}; offline check: {proof.reason} (advisory, label kept)")
            kept.append(StepVerdict("correct", "advisory finding set aside"))
            continue
        kept.append(proof)
    return kept, warnings


def verify(state: GradeState, runtime: Runtime[Context]) -> dict[str, Any]:
    if state.get("judged_by", "offline") == "offline":
        # The offline judge's labels are the evidence itself: nothing to cross-check.
        return {}
    evidence = state.get("evidence") or judge_steps(judge_input(state), runtime.context.judge)
    evidence, advisory = _advisory_only(state["verdicts"], evidence)
    verdicts, warnings = cross_check(state["verdicts"], evidence)
    return {"verdicts": verdicts, "warnings": advisory + warnings}
