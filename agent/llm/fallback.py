"""Degraded grading: when an LLM operation fails, the node uses its offline twin and says so.

The update carries the warning and `degraded=True`, so the report shows what happened
(`meta.degraded`, `meta.warnings`; the operation's record in `meta.llm_operations` says why)
instead of a silent minimum score (docs/architecture.md 5).
"""

from __future__ import annotations

from typing import Any

from agent.llm.records import LlmError


def degraded(err: LlmError, twin: str) -> dict[str, Any]:
    """State update for a failed operation; the caller adds its twin's results."""
    return {"warnings": [f"LLM {err}; degraded to the offline {twin}"], "degraded": True}
