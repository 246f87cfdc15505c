"""One body, two runtimes: code that needs an answer from the outside world is a generator.

A generator yields a question and receives the answer (or has the failure thrown into it), so the
same logic runs synchronously (the CLI, `Grader.grade`) and on an event loop (the service, the
benchmark runner) without a second copy. `drive` answers with a blocking function; `adrive` with a
coroutine and, when told, advances the generator in a worker thread so that heavy CPU work
between questions (an offline fallback after a failed call) never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable, Generator
from typing import Any, TypeVar

Q = TypeVar("Q")
A = TypeVar("A")
R = TypeVar("R")

Conversation = Generator[Q, A, R]


def drive(conversation: Conversation[Q, A, R], answer: Callable[[Q], A]) -> R:
    """Run `conversation` to its return value, answering each question with `answer`."""
    done, item = _advance(conversation, "next", None)
    while not done:
        try:
            reply = answer(item)
        except Exception as err:  # noqa: BLE001 - thrown into the generator, which handles or re-raises it
            done, item = _advance(conversation, "throw", err)
        else:
            done, item = _advance(conversation, "send", reply)
    return item  # type: ignore[no-any-return]


def _advance(conversation: Conversation[Q, A, R], how: str, value: Any) -> tuple[bool, Any]:
    """(done, question or return value): StopIteration cannot cross a Future, so it stops here."""
    try:
        if how == "next":
            return False, next(conversation)
        if how == "throw":
            return False, conversation.throw(value)
        return False, conversation.send(value)
    except StopIteration as stop:
        return True, stop.value


async def adrive(
    conversation: Conversation[Q, A, R],
    answer: Callable[[Q], Awaitable[A]],
    *,
    in_thread: frozenset[str] = frozenset(),
) -> R:
    """`drive` on an event loop; the generator's work after the kinds of step named in
    `in_thread` ("next", "send", "throw") runs in a worker thread, the rest on the loop."""
    loop = asyncio.get_running_loop()

    async def step(how: str, value: Any = None) -> tuple[bool, Any]:
        if how not in in_thread:
            return _advance(conversation, how, value)
        context = contextvars.copy_context()
        return await loop.run_in_executor(None, context.run, _advance, conversation, how, value)

    done, item = await step("next")
    while not done:
        try:
            reply = await answer(item)
        except Exception as err:  # noqa: BLE001 - as in `drive`
            done, item = await step("throw", err)
        else:
            done, item = await step("send", reply)
    return item  # type: ignore[no-any-return]
