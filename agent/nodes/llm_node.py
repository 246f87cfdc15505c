"""A graph node that may call the LLM, runnable both with `invoke` and with `ainvoke`.

The node's body is a generator (`agent/llm/drive.py`): it yields an `Ask` where it needs the
model and receives the answer, or has the `LlmError` thrown in so that it can degrade to its
offline twin. Under `invoke` the call blocks the node's thread; under `ainvoke` it is awaited on
the event loop through the async HTTP client. A busy service then holds no thread per waiting call
(DESIGN.md 5: LLM calls are async).

When the grade does not use the LLM, the body is its offline twin (the judge, the segmenter):
CPU work, run whole in a worker thread. When it does, building a prompt and reading a reply take
well under a millisecond and stay on the loop; only the offline fallback after a failed call is
real work, and that part goes to a worker thread. Hopping to a thread for every step cost more
under load than the work itself: each hop waits for the GIL behind the threads grading others.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from langgraph._internal._runnable import RunnableCallable
from langgraph.runtime import Runtime

from agent.context import Context
from agent.llm.ask import Ask
from agent.llm.drive import adrive, drive
from agent.timing import atimed, timed

NodeRun = Generator[Ask[Any], Any, dict[str, Any]]
_FALLBACK = frozenset({"throw"})
_EVERY_STEP = frozenset({"next", "send", "throw"})
Body = Callable[[Any, Runtime[Context]], NodeRun]


def llm_node(name: str, body: Body) -> RunnableCallable:
    """The node `name` with a sync and an async implementation of the same `body`."""

    def run(state: Any, runtime: Runtime[Context]) -> dict[str, Any]:
        llm = runtime.context.llm
        return drive(body(state, runtime), lambda ask: ask.run(llm))

    async def arun(state: Any, runtime: Runtime[Context]) -> dict[str, Any]:
        llm = runtime.context.llm
        offload = _FALLBACK if llm is not None and state.get("use_llm") else _EVERY_STEP
        return await adrive(body(state, runtime), lambda ask: ask.arun(llm), in_thread=offload)

    return RunnableCallable(timed(name, run), atimed(name, arun), name=name, trace=False)
