"""A new solution read against a problem's memory (docs/architecture.md 4.12).

Each remembered solution is aligned to the new one by ReAlign's Needleman-Wunsch
(`scoring.align.realign.dp_table`) over the signature similarity of their steps
(`scoring.judge.memory.signature`); among the solutions the teacher accepted whole, the one with the
best alignment (the NW total: matched similarity less the gaps) is the path the solution is read
against, whatever order they were corrected in. Then, per step:
- `accepted`: the values the step computes all appear in steps the teacher accepted (of any
  remembered solution): this piece of work was checked and held;
- `mistake`: the step computes a value that only a rejected step computed, or, computing none,
  is worded like a rejected step more than like any accepted one (a known mistake);
- the first step that computes a value found neither on the chosen accepted path nor among its
  own earlier steps is where the solution leaves every accepted path (`divergence`).
A step that computes nothing of its own is never `accepted` on its wording alone: wording says
what a step is about, not whether its work holds (a wrong solution's steps read like a right
one's); a known mistake repeated in the same words is still one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from scoring.align.realign import AlignConfig, dp_table
from scoring.judge.memory.model import ProblemMemory, RememberedSolution
from scoring.judge.memory.signature import Signature, given_numbers, signature, similarity

# A step that computes nothing of its own repeats a rejected step when its signature is at least
# this similar to it and more similar to it than to any accepted step (bigram overlap: 0.6 is
# well above what two unrelated steps of one problem share).
WORDING = 0.6
ALIGN = AlignConfig()  # ReAlign's gap (-0.1)


@dataclass(frozen=True)
class StepReading:
    """What the memory says about one step (0-based `step`)."""

    step: int
    accepted: bool = False
    mistake: str | None = None  # the rejected step's text it repeats
    divergence: bool = False


@dataclass(frozen=True)
class MemoryReading:
    """The whole solution against the memory: the accepted path chosen (its `source`, None
    without one), its alignment total, and a reading per step."""

    path: str | None
    path_score: float | None
    steps: tuple[StepReading, ...]


def _path_score(mine: Sequence[Signature], theirs: Sequence[Signature], gap: float) -> float:
    """The NW total of aligning the solution to one remembered solution (ReAlign's D[m][n])."""
    if not mine or not theirs:
        return gap * (len(mine) + len(theirs))
    matrix = np.array([[similarity(t, s) for s in mine] for t in theirs], dtype=float)
    return float(dp_table(matrix, gap)[-1, -1])


def _repeated_mistake(
    sig: Signature, accepted: Sequence[Signature], rejected: Sequence[tuple[Signature, str]]
) -> str | None:
    """The rejected step a step without values of its own repeats in wording, if any."""
    near = max((similarity(sig, a) for a in accepted), default=0.0)
    far, text = max(((similarity(sig, r), t) for r, t in rejected), default=(0.0, ""))
    return text if far >= WORDING and far > near else None


def _values(sigs: Sequence[Signature]) -> set[str]:
    return set().union(*(s.values for s in sigs)) if sigs else set()


@lru_cache(maxsize=256)
def remembered_signatures(
    memory: ProblemMemory, given: frozenset[str]
) -> tuple[tuple[Signature, ...], ...]:
    """Each remembered solution's step signatures, in order. Cached by value: the store builds
    the memory anew for every grade, and an equal memory (same corrections) hits the cache."""
    return tuple(tuple(signature(s.text, given) for s in sol.steps) for sol in memory.solutions)


def read_memory(
    problem: str, steps: Sequence[str], memory: ProblemMemory, config: AlignConfig = ALIGN
) -> MemoryReading:
    """The solution's steps read against the memory (see the module docstring). Cached: the
    check and the report's `meta.memory` read the same grade."""
    return _read_memory(problem, tuple(steps), memory, config)


@lru_cache(maxsize=64)
def _read_memory(
    problem: str, steps: tuple[str, ...], memory: ProblemMemory, config: AlignConfig
) -> MemoryReading:
    given = given_numbers(problem)
    mine = [signature(s, given) for s in steps]
    remembered: list[tuple[RememberedSolution, tuple[Signature, ...]]] = list(
        zip(memory.solutions, remembered_signatures(memory, given), strict=True)
    )
    accepted_values: set[str] = set()
    rejected_values: dict[str, str] = {}
    accepted_sigs: list[Signature] = []
    rejected_sigs: list[tuple[Signature, str]] = []
    for sol, sigs in remembered:
        for step, sig in zip(sol.steps, sigs, strict=True):
            if step.accepted:
                accepted_values |= sig.values
                accepted_sigs.append(sig)
            else:
                rejected_sigs.append((sig, step.text))
                for v in sig.results:
                    rejected_values.setdefault(v, step.text)
    paths = [
        (_path_score(mine, sigs, config.gap), sol.source, sigs)
        for sol, sigs in remembered
        if sol.accepted_whole
    ]
    best = max(paths, key=lambda p: p[0], default=None)
    path_values = _values(best[2]) if best is not None else set()
    readings: list[StepReading] = []
    earlier: set[str] = set()
    diverged = False
    for i, sig in enumerate(mine):
        own = sig.results
        accepted = bool(own) and own <= accepted_values
        mistake = next(
            (rejected_values[v] for v in sorted(own - accepted_values) if v in rejected_values),
            None,
        )
        if not own:
            mistake = _repeated_mistake(sig, accepted_sigs, rejected_sigs)
        divergence = (
            best is not None and not diverged and bool(own) and not own <= path_values | earlier
        )
        diverged = diverged or divergence
        earlier |= sig.values
        readings.append(StepReading(i, accepted, mistake, divergence))
    return MemoryReading(
        None if best is None else best[1], None if best is None else best[0], tuple(readings)
    )
