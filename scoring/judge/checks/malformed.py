"""Malformed LaTeX in a step, for the format module (docs/architecture.md 4.5)."""

from __future__ import annotations

from scoring.judge.checks.latexlint import latex_problems
from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput


def find_malformed(inp: JudgeInput) -> list[Finding]:
    """A `malformed_latex` finding per step with LaTeX problems; only with the format module on,
    since notation is otherwise not graded."""
    if not inp.format_module:
        return []
    return [
        Finding("malformed_latex", i, "; ".join(problems))
        for i, step in enumerate(inp.steps)
        if (problems := latex_problems(step))
    ]
