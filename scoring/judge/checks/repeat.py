"""A step that says again what an earlier step said: redundancy, not an error."""

from __future__ import annotations

import re

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput

_SPACE = re.compile(r"[\s$\\,.;:，。；：]+")


def _normalise(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def find_repeats(inp: JudgeInput) -> list[Finding]:
    """A `repeat` finding for a step equal to an earlier one up to spacing and punctuation."""
    seen: dict[str, int] = {}
    found: list[Finding] = []
    for i, step in enumerate(inp.steps):
        key = _normalise(step)
        if key and key in seen:
            found.append(Finding("repeat", i, f"repeats step {seen[key] + 1}"))
        seen.setdefault(key, i)
    return found
