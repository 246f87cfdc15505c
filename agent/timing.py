"""Per-node wall time, recorded in the state so the report's `meta.node_ms` shows where time went."""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any

Update = dict[str, Any]


def _stamped(name: str, update: Update, start: float) -> Update:
    return {**update, "node_ms": {name: round((time.perf_counter() - start) * 1000.0, 3)}}


def timed(name: str, node: Callable[..., Update]) -> Callable[..., Update]:
    """Wrap a node so its update also carries `node_ms[name]`."""

    @functools.wraps(node)
    def wrapper(*args: Any, **kwargs: Any) -> Update:
        start = time.perf_counter()
        return _stamped(name, node(*args, **kwargs), start)

    return wrapper


def atimed(name: str, node: Callable[..., Awaitable[Update]]) -> Callable[..., Awaitable[Update]]:
    """`timed` for a coroutine node."""

    @functools.wraps(node)
    async def wrapper(*args: Any, **kwargs: Any) -> Update:
        start = time.perf_counter()
        return _stamped(name, await node(*args, **kwargs), start)

    return wrapper
