"""Against the reference solution (ReAlign alignment): a step that matches no reference step at
all, or whose results differ from those of the reference step it aligns with."""

from __future__ import annotations

import re

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.lexicon import RATIONAL
from scoring.parse.quantities import extract_quantities

_NUMERIC = re.compile(RATIONAL)
UNRELATED_SIMILARITY = 0.3  # below the 0.3-0.55 that unrelated steps of one problem reach (MiniLM)


def _results(step: str) -> set[str]:
    """The numbers a step derives (variable names left out: they say nothing about values)."""
    return {q for q in extract_quantities(step).produced if _NUMERIC.fullmatch(q)}


def find_reference(inp: JudgeInput) -> list[Finding]:
    """`reference_unmatched` and `reference_mismatch` findings, only when a reference
    solution was aligned."""
    al = inp.alignment
    if al is None or not inp.reference_steps:
        return []
    found: list[Finding] = []
    for i, step in enumerate(inp.steps):
        refs = al.step_reference[i]
        if not refs:
            if al.step_similarity[i] < UNRELATED_SIMILARITY:
                found.append(
                    Finding(
                        "reference_unmatched",
                        i,
                        f"matches no reference step (best similarity {al.step_similarity[i]:.2f})",
                    )
                )
            continue
        mine = _results(step)
        theirs: set[str] = set()
        for r in refs:
            theirs |= _results(inp.reference_steps[r])
        if mine and theirs and not mine & theirs:
            shown = ", ".join(str(r + 1) for r in refs)
            found.append(
                Finding(
                    "reference_mismatch",
                    i,
                    f"results {sorted(mine)} differ from reference step {shown} ({sorted(theirs)})",
                )
            )
    return found
