"""The Ray engine: the same run as the local one, its items graded by a pool of Ray actors.

Ray Data does the work. The loader's items (those not yet in results.jsonl) become a Dataset;
`map_batches` sends small batches to a fixed pool of actors, each of which built one grader from
the run's Recipe when it started (models load once per actor); the graded lines stream back to
the driver, which appends each to results.jsonl as it arrives. That one file, written by one
process, keeps the local engine's contract: a killed run resumes where it stopped, nothing is
lost or written twice. Ray schedules, retries a batch whose actor died and applies back-pressure;
nothing here re-implements that. Each item still has its own deadline inside the actor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from agent.grader import Grader
from eval_sets.items import GoldItem
from eval_sets.runner.ray_connect import connect, forwarded_env, import_ray
from eval_sets.runner.run import Prepare, Record, RunConfig, RunStats, grade_each, run_pending
from eval_sets.runner.store import ItemResult, ResultStore


class Recipe(Protocol):
    """What an actor builds its grader from (`eval_sets.runner.bench.Recipe`): named by its
    shape here, so the engine does not import the runner that calls it."""

    def build(self, gate: Any = None) -> tuple[Grader, Prepare | None]:
        """The grader and the prepare step, their model calls behind `gate` when one is given."""
        ...


class EngineError(RuntimeError):
    """The Ray run itself failed (not one item): the message says why; a rerun resumes."""


@dataclass(frozen=True)
class RayOptions:
    """`--address` (else RAY_ADDRESS, else a Ray started here), `--actors` (else one per CPU of
    the cluster), `--llm-concurrency` (LLM requests in flight across all actors)."""

    address: str | None = None
    actors: int | None = None
    llm_concurrency: int | None = None

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RayOptions:
        """The options given on the command line (`--address`, `--actors`, `--llm-concurrency`)."""
        return cls(address=args.address, actors=args.actors, llm_concurrency=args.llm_concurrency)


class GradeBatch:
    """One actor of the pool: builds its grader once, then grades each batch it is handed."""

    def __init__(self, recipe: Recipe, config: RunConfig, gate: Any = None) -> None:
        from scoring.align import load_model

        self.grader, self.prepare = recipe.build(gate)
        self.config = config
        self.loop = asyncio.new_event_loop()
        load_model(self.grader.context.embed.model)  # now, not inside the first item's deadline

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        """Grade one batch of items (JSON texts), each within its deadline; their results.jsonl
        lines, for the driver to append."""
        items = [GoldItem.from_json(json.loads(str(text))) for text in batch["item"]]
        results: list[ItemResult] = []
        self.loop.run_until_complete(
            grade_each(
                self.grader, items, self.config, results.append, self.prepare, first_alone=False
            )
        )
        return {"line": [r.to_line() for r in results]}


def batch_size(config: RunConfig) -> int:
    """Items per actor call: a few offline (small enough to spread evenly and to lose little
    when killed), the items graded concurrently in LLM mode."""
    return 4 if config.mode == "offline" else max(1, config.concurrency)


def run_on_ray(
    items: Sequence[GoldItem],
    store: ResultStore,
    config: RunConfig,
    recipe: Recipe,
    options: RayOptions,
) -> RunStats:
    """The Ray engine: the pending items graded by a pool of actors (see the module doc)."""
    recipe.build()  # a configuration error shows here, before any actor starts
    return run_pending(
        items, store, config, lambda todo, record: _on_ray(todo, record, config, recipe, options)
    )


def _on_ray(
    todo: Sequence[GoldItem], record: Record, config: RunConfig, recipe: Recipe, options: RayOptions
) -> None:
    started = connect(options.address)
    ray = import_ray()
    try:
        _stream(ray, todo, record, config, recipe, options)
    except Exception as err:  # noqa: BLE001  (Ray's own and Ray Data's errors: no traceback)
        raise EngineError(f"the Ray run failed: {type(err).__name__}: {err}") from None
    finally:
        if started:
            ray.shutdown()


def _stream(
    ray: Any,
    todo: Sequence[GoldItem],
    record: Record,
    config: RunConfig,
    recipe: Recipe,
    options: RayOptions,
) -> None:
    from ray.data import ActorPoolStrategy, DataContext

    context = DataContext.get_current()
    context.enable_progress_bars = False  # the run's own bar counts resumed items too
    context.print_on_execution_start = False
    logging.getLogger("ray.data").setLevel(logging.ERROR)  # no per-dataset chatter on stderr
    actors = options.actors or max(1, int(ray.cluster_resources().get("CPU", 1)))
    gate = None
    if config.mode != "offline" and options.llm_concurrency:
        from eval_sets.runner.ray_slots import SlotGate, start_slots

        gate = SlotGate(start_slots(options.llm_concurrency, config.timeout or 600.0))
    size = batch_size(config)
    rows = [{"item": json.dumps(item.to_json(), ensure_ascii=False)} for item in todo]
    blocks = math.ceil(len(rows) / size)
    dataset = ray.data.from_items(rows, override_num_blocks=blocks)
    graded = dataset.map_batches(
        GradeBatch,
        fn_constructor_kwargs={"recipe": recipe, "config": config, "gate": gate},
        batch_size=size,
        compute=ActorPoolStrategy(size=min(actors, blocks)),
        num_cpus=1,
        runtime_env={"env_vars": forwarded_env()},
    )
    for row in graded.iter_rows():
        record(ItemResult.from_json(json.loads(row["line"])))
