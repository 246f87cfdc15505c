"""Grade items concurrently (bounded), each under a deadline, appending results as they finish."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from tqdm import tqdm

from agent.grader import Grader, LlmUnavailableError
from eval_sets.items import GoldItem
from eval_sets.runner.store import ItemResult, ResultStore
from scoring.schema import Mode


@dataclass(frozen=True)
class RunConfig:
    """How to grade: mode forced on every request, parallel items, seconds allowed per item."""

    mode: Mode = "offline"
    concurrency: int = 1
    timeout: float | None = 120.0
    progress: bool = True


# Turns an item into the one to grade, e.g. by asking a model for its solution (bench generate).
Prepare = Callable[[GoldItem], Awaitable[GoldItem]]


@dataclass(frozen=True)
class RunStats:
    total: int
    resumed: int
    graded: int
    failed: int
    wall_s: float


async def _grade_one(
    grader: Grader, item: GoldItem, config: RunConfig, prepare: Prepare | None = None
) -> ItemResult:
    start = time.perf_counter()
    report, error = None, None
    request = item.request

    async def work() -> None:
        nonlocal item, request, report
        if prepare is not None:
            item = await prepare(item)
        request = item.request.model_copy(update={"mode": config.mode})
        report = await grader.agrade(request)

    try:
        await asyncio.wait_for(work(), timeout=config.timeout)
    except TimeoutError:
        error = f"timeout after {config.timeout:g} s"
    except LlmUnavailableError:
        raise
    except Exception as err:  # noqa: BLE001  (one bad item must not stop a benchmark run)
        error = f"{type(err).__name__}: {err}"
    return ItemResult(
        id=item.id,
        gold=item.gold,
        request=request,
        report=report,
        error=error,
        elapsed_ms=(time.perf_counter() - start) * 1000.0,
        finished_at=time.time(),
    )


async def grade_each(
    grader: Grader,
    items: Sequence[GoldItem],
    config: RunConfig,
    record: Callable[[ItemResult], None],
    prepare: Prepare | None = None,
    *,
    first_alone: bool = True,
) -> None:
    """Grade `items`, at most `config.concurrency` at once, handing each result to `record` as it
    finishes. The first goes alone when `first_alone`: it loads the models the others share."""
    todo = list(items)
    if first_alone and todo:
        record(await _grade_one(grader, todo.pop(0), config, prepare))
    semaphore = asyncio.Semaphore(max(1, config.concurrency))

    async def worker(item: GoldItem) -> None:
        async with semaphore:
            record(await _grade_one(grader, item, config, prepare))

    await asyncio.gather(*(worker(item) for item in todo))


def progress_bar(total: int, done: int, config: RunConfig) -> tqdm:
    """The one progress bar of a run, whatever engine grades it."""
    return tqdm(
        total=total,
        initial=done,
        unit="item",
        file=sys.stderr,
        dynamic_ncols=True,
        disable=not config.progress,
        desc="grading",
        smoothing=0.1,
    )


Record = Callable[[ItemResult], None]
# An engine: grade these items, handing each result to `record` as soon as it is graded.
Grade = Callable[[Sequence[GoldItem], Record], None]


def run_pending(
    items: Sequence[GoldItem], store: ResultStore, config: RunConfig, grade: Grade
) -> RunStats:
    """Have `grade` grade every item not yet in `store`; each result is appended the moment it
    arrives (a killed run loses only what was in flight) and counted on the progress bar."""
    start = time.perf_counter()
    todo = [item for item in items if item.id not in store.done]
    resumed = len(items) - len(todo)
    bar = progress_bar(len(items), resumed, config)
    failed = 0

    def record(result: ItemResult) -> None:
        nonlocal failed
        store.append(result)
        failed += result.error is not None
        bar.update(1)

    try:
        if todo:
            grade(todo, record)
    finally:
        bar.close()
    return RunStats(
        total=len(items),
        resumed=resumed,
        graded=len(todo),
        failed=failed,
        wall_s=time.perf_counter() - start,
    )


def run_items(
    grader: Grader,
    items: Sequence[GoldItem],
    store: ResultStore,
    config: RunConfig,
    prepare: Prepare | None = None,
) -> RunStats:
    """The local engine: grade the pending items here, `config.concurrency` at a time."""
    return run_pending(
        items,
        store,
        config,
        lambda todo, record: asyncio.run(grade_each(grader, todo, config, record, prepare)),
    )
