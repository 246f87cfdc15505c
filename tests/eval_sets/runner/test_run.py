"""The runner's loop with a stub grader: bounded concurrency, per-item timeout, failures kept."""

from __future__ import annotations

import asyncio

from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset
from eval_sets.runner.run import RunConfig, run_items
from eval_sets.runner.store import ResultStore


class StubGrader:
    """Sleeps per request; 'Compute' problems hang, 'rectangle' ones raise."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.peak = 0

    async def agrade(self, request):  # type: ignore[no-untyped-def]
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            if "Compute" in request.problem:
                await asyncio.sleep(30)
            await asyncio.sleep(0.05)
            if "rectangle" in request.problem:
                raise RuntimeError("boom")
            from agent.grader import Grader

            return Grader().grade(request)
        finally:
            self.in_flight -= 1


def test_bounded_concurrency_timeout_and_errors(tmp_path) -> None:
    items = load_dataset("mr_math_invalid", bundled_path("mr_math_invalid"))
    store = ResultStore.open(tmp_path)
    grader = StubGrader()
    config = RunConfig(concurrency=2, timeout=1.0, progress=False)
    stats = run_items(grader, items, store, config)  # type: ignore[arg-type]
    assert grader.peak <= 2
    assert (stats.total, stats.graded, stats.failed) == (4, 4, 2)
    errors = {r.id: r.error for r in store.done.values()}
    assert errors["mr-invalid-2"] == "timeout after 1 s"
    assert errors["mr-invalid-3"] == "RuntimeError: boom"
    assert errors["mr-invalid-1"] is None and store.done["mr-invalid-1"].report is not None
    # Failed items are retried when the run is resumed.
    assert set(ResultStore.open(tmp_path).done) == {"mr-invalid-1", "mr-invalid-4"}
