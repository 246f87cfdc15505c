"""`build_tree`: the Tree-of-Error, validated in code (docs/architecture.md 4.4)."""

from __future__ import annotations

from typing import Any

from agent.state import GradeState
from scoring.score import build_tree as build


def build_tree(state: GradeState) -> dict[str, Any]:
    """Graph node: the steps' dependency tree, for the process score."""
    verdicts = state["verdicts"]
    return {"tree": build([v.label for v in verdicts], [list(v.depends_on) for v in verdicts])}
