"""The shared LLM slots: at most K leases out, a waiter woken by a release, a dead holder's lease
taken back after its ttl; and the gate holding one around a block. The counting is tested on
the class itself, without a Ray cluster (the cap across Ray actors is in test_ray_engine.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from eval_sets.runner.ray_slots import SlotGate, Slots


def test_leases_up_to_the_size_then_a_release_lets_the_next_in() -> None:
    async def scenario() -> tuple[list[int], dict[str, int], dict[str, int]]:
        slots = Slots(size=2, ttl=60.0)
        first, second = await slots.acquire(), await slots.acquire()
        waiting = asyncio.create_task(slots.acquire())
        await asyncio.sleep(0.05)
        assert not waiting.done()  # the cap holds
        before = slots.stats()
        slots.release(first)
        third = await asyncio.wait_for(waiting, timeout=2)
        return [first, second, third], before, slots.stats()

    leases, before, after = asyncio.run(scenario())
    assert leases == [1, 2, 3]
    assert before == {"size": 2, "in_use": 2, "peak": 2, "granted": 2}
    assert after == {"size": 2, "in_use": 2, "peak": 2, "granted": 3}


def test_a_lease_given_back_twice_or_unknown_changes_nothing() -> None:
    async def scenario() -> dict[str, int]:
        slots = Slots(size=1, ttl=60.0)
        lease = await slots.acquire()
        slots.release(lease)
        slots.release(lease)
        slots.release(99)
        return slots.stats()

    assert asyncio.run(scenario()) == {"size": 1, "in_use": 0, "peak": 1, "granted": 1}


def test_an_expired_lease_is_taken_back() -> None:
    async def scenario() -> int:
        slots = Slots(size=1, ttl=0.1)
        await slots.acquire()  # its holder never gives it back
        return await asyncio.wait_for(slots.acquire(), timeout=3)

    assert asyncio.run(scenario()) == 2


class FakeMethod:
    def __init__(self, fn: Any) -> None:
        self.fn = fn

    def remote(self, *args: Any) -> Any:
        return self.fn(*args)


class FakeSlots:
    """What SlotGate calls on the actor handle: `acquire.remote()` awaited, `release.remote(l)`."""

    def __init__(self) -> None:
        self.released: list[int] = []
        self.acquire = FakeMethod(self._acquire)
        self.release = FakeMethod(self.released.append)

    async def _acquire(self) -> int:
        return 7


def test_the_gate_gives_the_lease_back_after_the_block_even_on_error() -> None:
    slots = FakeSlots()
    gate = SlotGate(slots)

    async def scenario() -> None:
        async with gate.ahold():
            assert slots.released == []
        with pytest.raises(RuntimeError):
            async with gate.ahold():
                raise RuntimeError("the call failed")

    asyncio.run(scenario())
    assert slots.released == [7, 7]
