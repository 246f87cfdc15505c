"""The form of a step: malformed LaTeX (format module, DESIGN.md 4.5) and repeated steps."""

from __future__ import annotations

import re

from scoring.judge.checks.latexlint import latex_problems
from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput

_SPACE = re.compile(r"[\s$\\,.;:，。；：]+")


def _normalise(text: str) -> str:
    return _SPACE.sub(" ", text).strip().lower()


def find_malformed(inp: JudgeInput) -> list[Finding]:
    if not inp.format_module:
        return []
    return [Finding("malformed_latex", i, "; ".join(problems))
            for i, step in enumerate(inp.steps) if (problems := latex_problems(step))]


def find_repeats(inp: JudgeInput) -> list[Finding]:
    """A step that says again what an earlier step said, up to spacing and punctuation."""
    seen: dict[str, int] = {}
    found: list[Finding] = []
    for i, step in enumerate(inp.steps):
        key = _normalise(step)
        if key and key in seen:
            found.append(Finding("repeat", i, f"repeats step {seen[key] + 1}"))
        seen.setdefault(key, i)
    return found
