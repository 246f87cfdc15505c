"""What LLM operations leave behind: one record per operation in the grade's ledger, or an error.

Kept apart from the client so that offline grading imports no HTTP or SDK code.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from scoring.schema import DegradeReason, LlmOperation, StructuredMethod


@dataclass
class OperationRecord:
    """One operation (e.g. `step_judgement`), filled in while it runs; `meta.llm_operations`."""

    operation: str
    max_tokens: int = 0
    method: StructuredMethod | None = None
    requests: int = 0
    repaired: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    ms: float = 0.0
    degraded: DegradeReason | None = None
    detail: str = ""


@dataclass
class LlmRun:
    """One grade's LLM deadline (event-loop time) and the ledger its operations write to.

    Created per grade, so that the service can still report the requests made by a grade that
    did not finish, and so that every operation of the grade stops at the same deadline.
    """

    deadline: float | None = None
    operations: list[OperationRecord] = field(default_factory=list)

    @property
    def degraded(self) -> bool:
        """Whether any operation of the grade fell back to the offline path."""
        return any(op.degraded for op in self.operations)

    def meta_fields(self) -> dict[str, Any]:
        """What `Meta` reports about the grade's LLM use: requests, operations, tokens."""
        operations = [LlmOperation(**asdict(op)) for op in self.operations]
        return {
            "llm_calls": sum(op.requests for op in operations),
            "llm_operations": operations,
            "prompt_tokens": sum(op.prompt_tokens for op in operations),
            "completion_tokens": sum(op.completion_tokens for op in operations),
        }


class LlmError(RuntimeError):
    """An operation got no usable answer; `reason` says which kind of failure ended it."""

    def __init__(self, record: OperationRecord, reason: DegradeReason, detail: str) -> None:
        super().__init__(f"{record.operation}: {reason}: {detail}")
        self.record = record
        self.reason = reason


def fail(record: OperationRecord, reason: DegradeReason, detail: str) -> LlmError:
    """Mark the record degraded and return the error to raise."""
    record.degraded, record.detail = reason, detail[:500]
    return LlmError(record, reason, record.detail)


def elapsed_ms(start: float) -> float:
    """Milliseconds since `start` (a `time.perf_counter()` reading), rounded for reports."""
    return round((time.perf_counter() - start) * 1000.0, 3)
