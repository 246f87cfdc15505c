"""A solution whose steps as a whole do not resemble the problem: it answers another question.

Embedding similarity, so only where it is computed (`JudgeConfig.relatedness`). Soft evidence:
steps of a solution to the same problem rarely fall this low, but a terse one can.
"""

from __future__ import annotations

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput

OFF_TOPIC_MEAN = 0.25
OFF_TOPIC_STEP = 0.3


def find_off_topic(inp: JudgeInput) -> list[Finding]:
    """An `off_topic` finding for each dissimilar step, when the solution as a whole is unlike
    the problem; one unlike step in an otherwise related solution says nothing."""
    sims = inp.problem_similarity
    if not sims or sum(sims) / len(sims) >= OFF_TOPIC_MEAN:
        return []
    return [
        Finding("off_topic", i, f"unrelated to the problem (similarity {s:.2f})")
        for i, s in enumerate(sims)
        if s < OFF_TOPIC_STEP
    ]
