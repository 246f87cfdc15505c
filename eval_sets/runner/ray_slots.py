"""The Ray side of the LLM gate: one actor lends K slots, every grading actor borrows them.

Ray caps tasks per resource, not requests made from inside running actors, so the cap is an
async actor holding leases (what Ray's docs call an actor-based semaphore). A lease whose holder
died is not returned; it is taken back after `ttl` seconds, so a crashed actor cannot shrink the
cap for the rest of the run.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import ray


class Slots:
    """At most `size` leases out at once; methods run on the actor's one event loop."""

    def __init__(self, size: int, ttl: float) -> None:
        self.size = size
        self.ttl = ttl
        self.leases: dict[int, float] = {}
        self.ids = itertools.count(1)
        self.freed = asyncio.Event()
        self.peak = 0
        self.granted = 0

    def _expire(self) -> None:
        now = time.monotonic()
        for lease, since in list(self.leases.items()):
            if now - since > self.ttl:
                del self.leases[lease]

    async def acquire(self) -> int:
        """A new lease, once fewer than `size` are out (expired ones are taken back meanwhile)."""
        while True:
            self._expire()
            if len(self.leases) < self.size:
                lease = next(self.ids)
                self.leases[lease] = time.monotonic()
                self.peak = max(self.peak, len(self.leases))
                self.granted += 1
                return lease
            self.freed.clear()
            try:  # woken by a release, or after a while to take back expired leases
                await asyncio.wait_for(self.freed.wait(), timeout=min(1.0, self.ttl))
            except TimeoutError:
                pass

    def release(self, lease: int) -> None:
        """Give a lease back and wake a waiter; nothing for one already expired or given back."""
        if self.leases.pop(lease, None) is not None:
            self.freed.set()

    def stats(self) -> dict[str, int]:
        """The cap, the leases out now, the most ever out at once and the leases granted so far."""
        return {
            "size": self.size,
            "in_use": len(self.leases),
            "peak": self.peak,
            "granted": self.granted,
        }


def start_slots(size: int, ttl: float) -> Any:
    """The lending actor (no CPU reserved: it only counts)."""
    return ray.remote(num_cpus=0)(Slots).remote(size, ttl)


class SlotGate:
    """A `Gate` over a Slots actor; picklable, so each grading actor gets its own copy."""

    def __init__(self, slots: Any) -> None:
        self.slots = slots

    def _give_back_when_granted(self, ref: Any) -> None:
        """A caller cancelled while waiting (its item timed out): return the lease once granted."""

        def done(future: Any) -> None:
            if not future.cancelled() and future.exception() is None:
                self.slots.release.remote(future.result())

        ref.future().add_done_callback(done)

    @asynccontextmanager
    async def ahold(self) -> AsyncIterator[None]:
        """Hold one of the shared slots while the async block runs."""
        ref = self.slots.acquire.remote()
        try:
            lease = await ref
        except BaseException:
            self._give_back_when_granted(ref)
            raise
        try:
            yield
        finally:
            self.slots.release.remote(lease)

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Hold one of the shared slots while the block runs (this thread waits for it)."""
        lease = ray.get(self.slots.acquire.remote())
        try:
            yield
        finally:
            self.slots.release.remote(lease)
