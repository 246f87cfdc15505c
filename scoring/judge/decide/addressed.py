"""A solution that addressed the grader gains nothing from the model (docs/injection.md).

The text addressed to the grader is cut before anything is graded, the model's prompts
included, so the model reads the solution as if the text were absent. A model may still have
been swayed (by text the detector missed around what it found, or by nothing at all), so for
such a solution a model's label counts only where it costs points: each step keeps the verdict
that earns fewer points of the two, the model's (as the decision weighed it) or the one the
checks alone give (the offline decision of the same steps), under each scoring policy (its
follow-through credit is the lower of the two), with the larger probability of being wrong of
the two. A model's "correct" that no check supports thus never raises the grade, and its
"incorrect" still counts. Eq. 1 only falls as points are taken away, and so does its
expectation, so every score is at most both the offline grade of the solution without the text
and the model's grade of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from scoring.schema import ScoringPolicy
from scoring.score.stepmath import step_points
from scoring.verdict import StepVerdict


def earns(
    verdict: StepVerdict, simplicity: bool = False, policy: ScoringPolicy = "stepmath"
) -> float:
    """The points a step's verdict earns in Eq. 1 under `policy` (an unchecked step its
    expected point)."""
    return step_points(
        [verdict.label],
        [verdict.p_wrong],
        simplicity=simplicity,
        policy=policy,
        own=[verdict.follow_credit],
    )[0]


def no_gain(
    weighed: Sequence[StepVerdict], checks: Sequence[StepVerdict], simplicity: bool = False
) -> tuple[list[StepVerdict], list[str]]:
    """Per step, the verdict of `weighed` (the model's labels with the evidence) or of `checks`
    (the evidence alone) that earns fewer points, the model's on a tie, with the larger
    probability of being wrong and the smaller follow-through credit of the two; a warning for
    every model label set aside."""
    if len(weighed) != len(checks):
        raise ValueError(f"{len(weighed)} weighed verdicts for {len(checks)} steps")
    out: list[StepVerdict] = []
    warnings: list[str] = []
    for i, (mine, theirs) in enumerate(zip(weighed, checks, strict=True), 1):
        chosen = mine
        if earns(theirs, simplicity) < earns(mine, simplicity):
            chosen = replace(
                theirs,
                model_label=mine.model_label,
                reason=f"{theirs.reason} (the model's {mine.label} is not counted: "
                "the solution addresses the grader and no check supports it)",
            )
            warnings.append(
                f"step {i}: judged {mine.label}, which no check supports in a "
                f"solution that addresses the grader; labelled {theirs.label}"
            )
        out.append(_least(chosen, mine, theirs, simplicity))
    return out, warnings


def _least(
    chosen: StepVerdict, mine: StepVerdict, theirs: StepVerdict, simplicity: bool
) -> StepVerdict:
    """`chosen` with the larger P(wrong) of the two verdicts (where known) and no more
    follow-through credit than the lesser of theirs."""
    known = [v.p_wrong for v in (mine, theirs) if v.p_wrong is not None]
    if known:
        p_wrong = max(known)
        chosen = replace(chosen, p_wrong=p_wrong, validity=min(chosen.validity, 1.0 - p_wrong))
    least = min(
        earns(mine, simplicity, "follow_through"), earns(theirs, simplicity, "follow_through")
    )
    if earns(chosen, simplicity, "follow_through") > least:
        chosen = replace(chosen, follow_credit=least)
    return chosen
