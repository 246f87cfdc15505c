"""A failed LLM operation's state update: a warning naming the failure and the offline twin,
and the grade marked degraded."""

from __future__ import annotations

from agent.llm.fallback import degraded
from agent.llm.records import OperationRecord, fail


def test_the_update_names_the_operation_the_reason_and_the_twin():
    err = fail(OperationRecord("step_judgement"), "transport", "HTTP 500")
    update = degraded(err, "judge")
    assert update == {
        "warnings": ["LLM step_judgement: transport: HTTP 500; degraded to the offline judge"],
        "degraded": True,
    }
