"""Offline grading latency: cold start, p50/p95 per bundled example, and per item over the
StepMathBench and ProcessBench development sets (targets: p50 <= 25 ms, p95 <= 150 ms).

    stepgrade study latency [--repeat N] [--data DIR] [--limit N] [--memory]

Each item is graded once, warm (after the bundled examples have loaded the models); the time is
the grade's wall clock in this process, answer check included. Figures depend on the machine's
load: `uptime` is printed beside them. The per-item table also gives the CPU time this process
spent on each grade, which a loaded machine distorts far less (it leaves out the math-verify
worker's CPU, which runs in its own process; its wall time is in the wall clock).

`--memory` grades every dev item with a problem memory present (docs/memory.md): the other
solutions of its problem (up to `MEMORY_SOLUTIONS`, StepMathBench has five a problem) remembered
as accepted, or, for a problem with a single solution, that solution itself: every step is then
aligned to at least one accepted path, the work memory adds to a grade.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from agent.grader import Grader
from eval_sets.items import GoldItem
from eval_sets.loaders.processbench import load_processbench
from eval_sets.loaders.stepmath import load_stepmath
from eval_sets.plugins import register_study
from eval_sets.processes import percentile
from eval_sets.study_cli import add_data, add_limit, require_folder, run_study
from example_requests import example_names, load_example
from scoring.answer import extract_answer
from scoring.judge import ProblemMemory, RememberedSolution, RememberedStep, problem_key
from scoring.schema import GradeRequest
from scoring.steps import segment_steps

TARGET_P50_MS = 25.0
TARGET_P95_MS = 150.0
DEV_SETS = {
    "stepmath": ("stepmathbench_dev.jsonl", load_stepmath),
    "processbench": ("processbench_dev.jsonl", load_processbench),
}


MEMORY_SOLUTIONS = 4


def _timed(grader: Grader, request: GradeRequest) -> float:
    return _clocked(grader, request)[0]


def _clocked(
    grader: Grader, request: GradeRequest, memory: ProblemMemory | None = None
) -> tuple[float, float]:
    """Wall and process CPU milliseconds of one grade."""
    start, cpu = time.perf_counter(), time.process_time()
    grader.grade(request, memory)
    return (time.perf_counter() - start) * 1000.0, (time.process_time() - cpu) * 1000.0


def _row(name: str, n: object, times: list[float], cpu: list[float] | None = None) -> str:
    row = (
        f"{name:<22} {n!s:>5} {percentile(times, 0.5):>8.1f} "
        f"{percentile(times, 0.95):>8.1f} {statistics.fmean(times):>8.1f}"
    )
    if cpu is not None:
        row += f" {percentile(cpu, 0.5):>8.1f} {percentile(cpu, 0.95):>8.1f}"
    return row


def memories(items: Sequence[GoldItem]) -> list[ProblemMemory]:
    """Each item's memory for `--memory`: up to `MEMORY_SOLUTIONS` other solutions of its problem,
    accepted whole (the item itself when it is its problem's only one)."""
    by: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        by[problem_key(item.request.problem)].append(i)

    def remembered(i: int) -> RememberedSolution:
        request = items[i].request
        steps = request.solution_steps or segment_steps(request.solution or "", request.language)
        return RememberedSolution(
            f"item-{i}",
            tuple(RememberedStep(s, "correct") for s in steps),
            datetime(2026, 1, 1),
            extract_answer("\n".join(steps)),
        )

    out = []
    for i, item in enumerate(items):
        key = problem_key(item.request.problem)
        others = [j for j in by[key] if j != i][:MEMORY_SOLUTIONS] or [i]
        out.append(ProblemMemory(key, tuple(remembered(j) for j in others)))
    return out


def dev_latency(grader: Grader, data: Path, limit: int | None, memory: bool = False) -> int:
    """p50/p95 per item over the dev sets found in `data` (each with a problem memory present
    when `memory`); 1 when a target is missed."""
    print(
        f"\nper item over the development sets in {data} (load {os.getloadavg()[0]:.1f})"
        + (", with a problem memory present" if memory else "")
    )
    print(
        f"{'set':<22} {'items':>5} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8} "
        f"{'p50 cpu':>8} {'p95 cpu':>8}"
    )
    every: list[float] = []
    every_cpu: list[float] = []
    for name, (file, load) in DEV_SETS.items():
        path = data / file
        if not path.is_file():
            print(f"{name:<22} (no {file}: skipped)")
            continue
        items = [item for item in load(path) if isinstance(item, GoldItem)][:limit]
        known = memories(items) if memory else [None] * len(items)
        clocked = [_clocked(grader, item.request, m) for item, m in zip(items, known, strict=True)]
        times, cpu = [w for w, _ in clocked], [c for _, c in clocked]
        every += times
        every_cpu += cpu
        print(_row(name, len(times), times, cpu))
    if not every:
        return 0
    print(_row("all", len(every), every, every_cpu))
    p50, p95 = percentile(every, 0.5), percentile(every, 0.95)
    met = p50 <= TARGET_P50_MS and p95 <= TARGET_P95_MS
    print(
        f"target p50 <= {TARGET_P50_MS:.0f} ms, p95 <= {TARGET_P95_MS:.0f} ms: "
        + ("met" if met else "MISSED")
    )
    return 0 if met else 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    parser.add_argument("--repeat", type=int, default=20)
    add_data(parser, "folder with the StepMathBench and ProcessBench development sets")
    add_limit(parser, "at most this many items per set")
    parser.add_argument(
        "--memory", action="store_true", help="grade the dev items with a problem memory present"
    )


@register_study("latency", arguments=add_arguments)
def latency(args: argparse.Namespace) -> int:
    """Print the cold start and each example's latency, then the dev sets' with `--data`; 1 when a
    target is missed, 2 when the folder is missing."""
    if args.data is not None:
        require_folder(args.data)
    start = time.perf_counter()
    grader = Grader()
    requests = {name: load_example(name) for name in example_names()}
    steps = {name: len(grader.grade(request).steps) for name, request in requests.items()}
    print(
        f"cold start (graph, worker, embedding model, first grades): "
        f"{time.perf_counter() - start:.2f} s"
    )
    print(f"{'example':<22} {'steps':>5} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
    for name, request in requests.items():
        times = [_timed(grader, request) for _ in range(args.repeat)]
        print(_row(name, steps[name], times))
    return dev_latency(grader, args.data, args.limit, args.memory) if args.data is not None else 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.latency`: the study over this process's arguments."""
    return run_study("latency", argv)


if __name__ == "__main__":
    sys.exit(main())
