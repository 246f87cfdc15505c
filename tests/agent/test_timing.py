"""Per-node wall time: a wrapped node's update carries `node_ms[name]`, sync or async."""

from __future__ import annotations

import asyncio
import time

from agent.timing import atimed, timed


def test_a_node_is_timed_and_its_update_kept():
    def node(state: dict) -> dict:
        time.sleep(0.02)
        return {"steps": state["steps"]}

    wrapped = timed("segment", node)
    update = wrapped({"steps": ["a"]})
    assert update["steps"] == ["a"] and set(update["node_ms"]) == {"segment"}
    assert update["node_ms"]["segment"] >= 20
    assert wrapped.__name__ == "node"  # the node keeps its name for the graph


def test_a_coroutine_node_is_timed_too():
    async def node(state: dict) -> dict:
        await asyncio.sleep(0.02)
        return {"done": True}

    update = asyncio.run(atimed("verify", node)({}))
    assert update["done"] is True and update["node_ms"]["verify"] >= 20
