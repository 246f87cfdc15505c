"""What an LLM operation leaves behind: its round trips, or the error that ended it.

Kept apart from the client so that offline grading imports no HTTP or SDK code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class CallRecord:
    """One HTTP round trip to the model, for `meta` (calls, tokens) and for debugging."""

    operation: str
    method: str
    prompt_tokens: int
    completion_tokens: int
    ms: float
    ok: bool


@dataclass(frozen=True)
class Result(Generic[T]):
    value: T
    records: list[CallRecord]


class LlmError(RuntimeError):
    """An operation got no valid answer: transport failure, or invalid output after the repair."""

    def __init__(self, operation: str, message: str, records: list[CallRecord]) -> None:
        super().__init__(f"{operation}: {message}")
        self.operation = operation
        self.records = records
