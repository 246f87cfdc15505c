"""Process tuning applied once the service has started: the graph's thread pool, the collector.

Both belong to the process, not to the app: they run from the lifespan, after the warm-up, in
every worker that `stepgrade serve` starts.
"""

from __future__ import annotations

import asyncio
import gc
from concurrent.futures import ThreadPoolExecutor

YOUNG_GC_THRESHOLD = 20_000  # allocations between collections of the youngest generation


def size_graph_executor(max_concurrency: int) -> None:
    """Size the running loop's default executor for the concurrency limit.

    Streaming runs the graph's synchronous nodes on the loop's default executor: x3 for the
    graph's parallel branches, instead of Python's cpu + 4.
    """
    executor = ThreadPoolExecutor(
        max_workers=3 * max_concurrency, thread_name_prefix="stepgrade-graph"
    )
    asyncio.get_running_loop().set_default_executor(executor)


def tune_collector() -> None:
    """Freeze what start-up loaded and collect the young generation less often.

    What start-up loaded (torch, the embedding model, the libraries: ~600k objects) lives as
    long as the process: out of the cyclic collector's reach, its full collections stop walking
    it, which saves CPU on every LLM-mode grade under load. A grade allocates many short-lived
    objects (LangChain, the SDK, pydantic): with the default threshold of 700 the young
    generation was collected about twice per LLM-mode grade, 1.2 ms of CPU per grade in
    collections; at 20,000 it is 0.3 ms, the pause of one collection a few milliseconds
    (measured by `gc.callbacks`, grading the bundled arithmetic_slip in LLM mode in one process
    against the fake endpoint).
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_GC_THRESHOLD, *gc.get_threshold()[1:])
