"""Against the problem's memory (docs/architecture.md 4.12): the steps of a new solution read
against the solutions a teacher corrected (`scoring.judge.memory.match`), as findings. How much each
kind is worth is measured where memory exists (`eval_sets.memory_bench`), not here."""

from __future__ import annotations

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.judge.memory.match import read_memory


def find_memory(inp: JudgeInput) -> list[Finding]:
    """`memory_accepted`, `memory_mistake` and `memory_divergence` findings; none without a
    memory of the problem."""
    if not inp.memory:
        return []
    found: list[Finding] = []
    for r in read_memory(inp.problem, inp.steps, inp.memory).steps:
        if r.mistake is not None:
            found.append(
                Finding(
                    "memory_mistake",
                    r.step,
                    "repeats a step a teacher rejected in "
                    f"another solution of this problem ({r.mistake[:80]})",
                )
            )
        elif r.accepted:
            found.append(
                Finding(
                    "memory_accepted",
                    r.step,
                    "computes what a teacher accepted in another solution of this problem",
                )
            )
        if r.divergence:
            found.append(
                Finding(
                    "memory_divergence",
                    r.step,
                    "first step that leaves every solution of this problem a teacher accepted",
                )
            )
    return found
