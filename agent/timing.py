"""Per-node wall time, recorded in the state so the report's `meta.node_ms` shows where time went."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any


def timed(name: str, node: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
    """Wrap a node so its update also carries `node_ms[name]`."""

    @functools.wraps(node)
    def wrapper(*args: Any, **kwargs: Any) -> dict[str, Any]:
        start = time.perf_counter()
        update = node(*args, **kwargs)
        elapsed = round((time.perf_counter() - start) * 1000.0, 3)
        return {**update, "node_ms": {name: elapsed}}

    return wrapper
