"""Cross-check of model-given step labels against decided evidence (the `verify` node, DESIGN.md 3).

A model may call a step correct that code has proven false, or give full marks to a solution whose
final answer is symbolically wrong (including when the solution tells the grader to). Decided
evidence wins; every disagreement becomes a warning, none is resolved silently.
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.verdict import StepVerdict

DECISIVE = ("symbolic", "answer")


def cross_check(
    judged: Sequence[StepVerdict], evidence: Sequence[StepVerdict]
) -> tuple[list[StepVerdict], list[str]]:
    """Override labels that decided evidence contradicts; report every disagreement.

    Args:
        judged: the labels to check (e.g. from the LLM), one per step.
        evidence: the offline judge's verdicts for the same steps.
    """
    if len(judged) != len(evidence):
        raise ValueError(f"{len(judged)} judged steps but {len(evidence)} evidence verdicts")
    result: list[StepVerdict] = []
    warnings: list[str] = []
    for i, (mine, proof) in enumerate(zip(judged, evidence, strict=True), 1):
        decisive = any(e in proof.evidence for e in DECISIVE)
        if decisive and proof.label == "incorrect" and mine.label != "incorrect":
            warnings.append(
                f"step {i}: judged {mine.label} but {proof.reason}; relabelled incorrect"
            )
            result.append(
                proof.relabel("incorrect", proof.reason, proof.evidence[0], depends_on=mine.depends_on)
            )
            continue
        if decisive and proof.label == "correct" and mine.label == "incorrect":
            warnings.append(f"step {i}: judged incorrect although {proof.reason}; label kept")
        result.append(mine)
    return result, warnings
