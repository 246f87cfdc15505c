"""`Ask`: one structured LLM call, described as data so one node body serves sync and async runs.

An operation (`agent/llm/operations.py`) builds the prompt and says how to read the answer; the
node yields the `Ask` and the driver (`agent/llm/drive.py`) makes the call on whichever runtime is
running the graph: `run` blocks (CLI, `Grader.grade`), `arun` awaits (service, runner).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from agent.llm.records import Result

if TYPE_CHECKING:
    from agent.llm.structured import Check, StructuredLlm

T = TypeVar("T")


@dataclass(frozen=True)
class Ask(Generic[T]):
    """Call `operation` with `prompt`; `check` adds semantic problems; `read` makes the result."""

    operation: str
    prompt: str
    read: Callable[[Result[Any]], T]
    check: Check | None = None

    def run(self, llm: StructuredLlm) -> T:
        return self.read(llm.call(self.operation, self.prompt, self.check))

    async def arun(self, llm: StructuredLlm) -> T:
        return self.read(await llm.acall(self.operation, self.prompt, self.check))
