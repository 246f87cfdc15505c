"""Process tuning at start-up: the graph's thread pool sized for the concurrency, the
collector's young generation collected less often."""

from __future__ import annotations

import asyncio
import gc

from server.core.runtime import YOUNG_GC_THRESHOLD, size_graph_executor, tune_collector


def test_the_loops_executor_has_three_threads_per_concurrent_grade():
    async def sized() -> int:
        size_graph_executor(4)
        executor = asyncio.get_running_loop()._default_executor
        assert executor is not None
        names = await asyncio.get_running_loop().run_in_executor(
            None, lambda: __import__("threading").current_thread().name
        )
        assert names.startswith("stepgrade-graph")
        return executor._max_workers

    assert asyncio.run(sized()) == 12


def test_the_young_generation_threshold_is_raised_and_the_rest_kept():
    before = gc.get_threshold()
    try:
        tune_collector()
        assert gc.get_threshold() == (YOUNG_GC_THRESHOLD, *before[1:])
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
