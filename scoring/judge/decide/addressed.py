"""A solution that addressed the grader gains nothing from the model (docs/injection.md).

The text addressed to the grader is cut before anything is graded, the model's prompts
included, so the model reads the solution as if the text were absent. A model may still have
been swayed (by text the detector missed around what it found, or by nothing at all), so for
such a solution a model's label counts only where it costs points: each step keeps the label
that earns fewer points of the two, the model's (as the decision weighed it) or the one the
checks alone give (the offline decision of the same steps). A model's "correct" that no check
supports thus never raises the grade, and its "incorrect" still counts. Likewise a step's
probability of being wrong is the larger of the two, so the expected score cannot rise either.
Eq. 1 only falls as points are taken away, so the grade is at most both the offline grade of
the solution without the text and the model's grade of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scoring.verdict import StepVerdict

# What a label earns in Eq. 1 (StepMathAgent); `redundant` earns nothing under the simplicity module.
_EARNS = {"correct": 1.0, "redundant": 1.0, "incorrect": 0.0, "meaningless": 0.0}


def earns(verdict: StepVerdict, simplicity: bool = False) -> float:
    """The points a step's label earns."""
    if simplicity and verdict.label == "redundant":
        return 0.0
    return _EARNS.get(verdict.label, 0.0)


def no_gain(weighed: Sequence[StepVerdict], checks: Sequence[StepVerdict],
            simplicity: bool = False) -> tuple[list[StepVerdict], list[str]]:
    """Per step, the verdict of `weighed` (the model's labels with the evidence) or of `checks`
    (the evidence alone) that earns fewer points, the model's on a tie, with the larger
    probability of being wrong of the two; a warning for every model label set aside."""
    if len(weighed) != len(checks):
        raise ValueError(f"{len(weighed)} weighed verdicts for {len(checks)} steps")
    out: list[StepVerdict] = []
    warnings: list[str] = []
    for i, (mine, theirs) in enumerate(zip(weighed, checks, strict=True), 1):
        chosen = mine
        if earns(theirs, simplicity) < earns(mine, simplicity):
            chosen = replace(theirs, model_label=mine.model_label,
                             reason=f"{theirs.reason} (the model's {mine.label} is not counted: "
                                    "the solution addresses the grader and no check supports it)")
            warnings.append(f"step {i}: judged {mine.label}, which no check supports in a "
                            f"solution that addresses the grader; labelled {theirs.label}")
        out.append(_likelier_wrong(chosen, mine, theirs))
    return out, warnings


def _likelier_wrong(chosen: StepVerdict, *verdicts: StepVerdict) -> StepVerdict:
    """`chosen` with the largest probability of being wrong among `verdicts` (where known)."""
    known = [v.p_wrong for v in verdicts if v.p_wrong is not None]
    if not known:
        return chosen
    p_wrong = max(known)
    return replace(chosen, p_wrong=p_wrong, validity=min(chosen.validity, 1.0 - p_wrong))
