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
import os
import socket
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval_sets.items import GoldItem
from eval_sets.runner.recipe import Recipe
from eval_sets.runner.run import RunConfig, RunStats, grade_each, progress_bar
from eval_sets.runner.store import ItemResult, ResultStore

# Variables every actor must see as the driver does (LLM endpoint, models offline, ...).
FORWARDED_ENV = ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_HOME")
FORWARDED_PREFIX = "STEPGRADE_"
CONNECT_TIMEOUT = 10.0  # seconds to reach a head node's port
TOKEN_FILE = Path("~/.ray/auth_token")  # where `ray start` keeps the cluster's token


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
        return cls(address=args.address, actors=args.actors, llm_concurrency=args.llm_concurrency)


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ValueError("--engine ray needs Ray: pip install -e '.[ray]' (or stepgrade[ray])") from None
    return ray


def forwarded_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items()
            if k.startswith(FORWARDED_PREFIX) or k in FORWARDED_ENV}


def connect(options: RayOptions) -> bool:
    """Join the cluster at `--address` (or RAY_ADDRESS; `auto` finds one started on this machine
    with `ray start`), else start a Ray of our own here, even beside another. True when this
    call made the connection (and so should close it)."""
    ray = _ray()
    if ray.is_initialized():
        return False
    address = options.address or os.environ.get("RAY_ADDRESS") or "local"
    extra = {"include_dashboard": False} if address == "local" else {}
    if address != "local":
        _token_auth_like_ray_start()
    try:
        _reachable(address)
        ray.init(address=address, logging_level=logging.WARNING, **extra)
    except (OSError, RuntimeError, ValueError) as err:
        raise ValueError(f"cannot connect to Ray at {address}: {err} (a cluster with token "
                         f"authentication also needs RAY_AUTH_MODE=token and its token in "
                         f"RAY_AUTH_TOKEN or {TOKEN_FILE})") from None
    return True


def _token_auth_like_ray_start() -> None:
    """`ray start --head` turns token authentication on when a token exists (RAY_AUTH_TOKEN or
    ~/.ray/auth_token), but a client joining with `ray.init(address=...)` does not and is
    refused; do for the client what the head did, unless RAY_AUTH_MODE says otherwise."""
    if "RAY_AUTH_MODE" not in os.environ and (os.environ.get("RAY_AUTH_TOKEN")
                                              or TOKEN_FILE.expanduser().is_file()):
        os.environ["RAY_AUTH_MODE"] = "token"


def _reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail fast: `ray.init` waits for an absent head node for many minutes."""
    if address in ("local", "auto"):
        return
    host, _, port = address.split("://", 1)[-1].rpartition(":")
    socket.create_connection((host or "127.0.0.1", int(port)), timeout=timeout).close()


class GradeBatch:
    """One actor of the pool: builds its grader once, then grades each batch it is handed."""

    def __init__(self, recipe: Recipe, config: RunConfig, gate: Any = None) -> None:
        from scoring.embed import load_model

        self.grader, self.prepare = recipe.build(gate)
        self.config = config
        self.loop = asyncio.new_event_loop()
        load_model(self.grader.context.embed.model)  # now, not inside the first item's deadline

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        items = [GoldItem.from_json(json.loads(str(text))) for text in batch["item"]]
        results: list[ItemResult] = []
        self.loop.run_until_complete(grade_each(self.grader, items, self.config, results.append,
                                                self.prepare, first_alone=False))
        return {"line": [r.to_line() for r in results]}


def batch_size(config: RunConfig) -> int:
    """Items per actor call: a few offline (small enough to spread evenly and to lose little
    when killed), the items graded concurrently in LLM mode."""
    return 4 if config.mode == "offline" else max(1, config.concurrency)


def run_on_ray(items: Sequence[GoldItem], store: ResultStore, config: RunConfig, recipe: Recipe,
               options: RayOptions) -> RunStats:
    """Grade every item not yet in `store` on Ray; the same RunStats as the local engine."""
    recipe.build()  # a configuration error shows here, before any actor starts
    start = time.perf_counter()
    todo = [item for item in items if item.id not in store.done]
    resumed = len(items) - len(todo)
    failed = 0
    if todo:
        ray = _ray()
        started = connect(options)
        try:
            failed = _stream(ray, todo, store, config, recipe, options, resumed, len(items))
        except ray.exceptions.RayError as err:
            raise EngineError(f"the Ray run failed: {err}") from None
        finally:
            if started:
                ray.shutdown()
    return RunStats(total=len(items), resumed=resumed, graded=len(todo), failed=failed,
                    wall_s=time.perf_counter() - start)


def _stream(ray: Any, todo: Sequence[GoldItem], store: ResultStore, config: RunConfig,
            recipe: Recipe, options: RayOptions, resumed: int, total: int) -> int:
    from ray.data import ActorPoolStrategy, DataContext

    context = DataContext.get_current()
    context.enable_progress_bars = False  # ours below counts resumed items too
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
        GradeBatch, fn_constructor_kwargs={"recipe": recipe, "config": config, "gate": gate},
        batch_size=size, compute=ActorPoolStrategy(size=min(actors, blocks)), num_cpus=1,
        runtime_env={"env_vars": forwarded_env()})
    failed = 0
    bar = progress_bar(total, resumed, config)
    try:
        for row in graded.iter_rows():
            result = ItemResult.from_json(json.loads(row["line"]))
            store.append(result)
            failed += result.error is not None
            bar.update(1)
    finally:
        bar.close()
    return failed
