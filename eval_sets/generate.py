"""`stepgrade bench generate`: ReAlign's pipeline. A model solves each problem step by step through
an OpenAI-compatible API (the project's one chat-model factory), then stepgrade grades the solution
against the reference solution and answer: alignment, dual-mode correctness, quadrants.

Model answers are cached as cassettes in `OUT/llm_cache`, so a rerun or a resumed run asks the
model only for what it has not answered yet. The instruction is ReAlign's plain step-by-step
request (`prompts/generate_solution.<lang>.j2`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial
from pathlib import Path

from langchain_core.messages import HumanMessage, SystemMessage

from agent.llm.config import LlmConfig
from agent.llm.factory import make_chat_model
from eval_sets.items import Gold, GoldItem
from eval_sets.registry import DatasetError, read_dataset
from eval_sets.runner.bench import BenchSpec, Recipe, grade_items, print_tables, report_run
from eval_sets.runner.llm_gate import Gate, gated
from eval_sets.runner.ray_engine import RayOptions
from eval_sets.runner.run import Prepare, RunConfig, RunStats
from eval_sets.runner.store import ResultStore
from prompts.render import render
from scoring.schema import GradeRequest


def solver(config: LlmConfig, max_tokens: int, gate: Gate | None = None) -> Prepare:
    """A `Prepare` that swaps each item's solution for the model's, keeping the references
    (GSM8K and MATH carry their worked solution as `reference_solution`)."""
    model = gated(make_chat_model(config), gate).bind(max_tokens=max_tokens)

    async def prepare(item: GoldItem) -> GoldItem:
        language = "zh" if item.request.language == "zh" else "en"
        system = render("generate_solution", language).strip()
        answer = await model.ainvoke([SystemMessage(system), HumanMessage(item.request.problem)])
        text = answer.content if isinstance(answer.content, str) else str(answer.content)
        if not text.strip():
            raise ValueError("the model returned an empty solution")
        old = item.request
        data = old.model_dump(exclude={"solution", "solution_steps"})
        request = GradeRequest.model_validate({**data, "solution": text})
        # The loader's process gold described its own solution, not the model's.
        gold = Gold(subset=item.gold.subset, level=item.gold.level)
        return GoldItem(id=item.id, request=request, gold=gold)

    return prepare


def bench_generate(args: argparse.Namespace) -> RunStats:
    """The `stepgrade bench generate` command: the model solves the items, they are graded
    (resumably) and reported; the run's counts."""
    base_url = args.base_url or os.environ.get("STEPGRADE_LLM_BASE_URL")
    if not base_url:
        raise ValueError(
            "bench generate needs --base-url or STEPGRADE_LLM_BASE_URL "
            "(an OpenAI-compatible endpoint)"
        )
    out = Path(args.out)
    loaded = read_dataset(args.dataset, Path(args.path), limit=args.limit, subsets=args.subsets)
    if not loaded.items:
        raise DatasetError(f"{args.path}: no items selected (check --subsets and --limit)")
    BenchSpec.check(
        out,
        BenchSpec(
            f"generate:{args.dataset}:{args.model}", str(Path(args.path).resolve()), args.mode
        ),
    )
    cache = out / "llm_cache"
    cache.mkdir(parents=True, exist_ok=True)
    config = LlmConfig(
        base_url=base_url,
        model=args.model,
        api_key=args.api_key or os.environ.get("STEPGRADE_LLM_API_KEY", "not-needed"),
        timeout=args.timeout,
        temperature=0.0,
        cache_dir=cache,
    )
    store = ResultStore.open(out)
    recipe = Recipe(args.mode, out, prepare=partial(solver, config, args.max_tokens))
    run = RunConfig(
        mode=args.mode,
        concurrency=args.concurrency,
        timeout=args.timeout,
        progress=not args.no_progress,
    )
    start = time.perf_counter()
    stats = grade_items(
        loaded.items, loaded.failed, store, run, recipe, args.engine, RayOptions.from_args(args)
    )
    tables = report_run(
        loaded,
        store,
        out,
        f"generate {args.dataset} with {args.model}",
        0.5,
        time.perf_counter() - start,
    )
    print(
        f"generate: {stats.total} items, {stats.resumed} resumed, {stats.graded} generated and "
        f"graded now, {stats.failed} failed, {stats.wall_s:.1f} s ({args.engine} engine)",
        file=sys.stderr,
    )
    print_tables(tables)
    return stats
