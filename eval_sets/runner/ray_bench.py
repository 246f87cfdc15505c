"""`make bench-ray`: the local engine against Ray at 1 and 2 actors, same items, one run.

For each development set it grades every item three times into fresh folders and prints, per
engine, items/s end to end (start-up included: Ray's actors load their models) and in the steady
state (from the first item finished to the last, by the items' own `finished_at`). It then checks
that the three results.jsonl agree item by item, timings aside, and exits 1 if they do not. An
item that differs is graded again locally a few times, to show whether the grader itself varies
on it (some step checks have wall-clock budgets, which a loaded machine can exhaust).

    python -m eval_sets.runner.ray_bench --data ../shared/data --out /tmp/stepgrade-bench-ray
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from eval_sets.registry import read_dataset
from eval_sets.runner.bench import Engine, Recipe, grade_items
from eval_sets.runner.compare import differences, read_results, without_timings
from eval_sets.runner.ray_connect import connect
from eval_sets.runner.ray_engine import RayOptions
from eval_sets.runner.run import RunConfig, grade_each
from eval_sets.runner.store import RESULTS, ItemResult, ResultStore

SETS = (("stepmath", "stepmathbench_dev.jsonl"), ("processbench", "processbench_dev.jsonl"))
RUNS: tuple[tuple[str, Engine, int | None], ...] = (
    ("local", "local", None),
    ("ray, 1 actor", "ray", 1),
    ("ray, 2 actors", "ray", 2),
)


@dataclass(frozen=True)
class Timing:
    items: int
    wall_s: float
    steady_per_s: float | None

    @property
    def per_s(self) -> float:
        """Items per second end to end, start-up included."""
        return self.items / self.wall_s


def steady_rate(out: Path) -> float | None:
    """Items per second between the first and the last item finished."""
    stamps = sorted(
        json.loads(line)["timings"]["finished_at"]
        for line in (out / RESULTS).read_text(encoding="utf-8").splitlines()
    )
    span = stamps[-1] - stamps[0] if len(stamps) > 1 else 0.0
    return (len(stamps) - 1) / span if span > 0 else None


def run_once(
    kind: str, path: Path, out: Path, engine: Engine, actors: int | None, answer_timeout: float
) -> Timing:
    """Grade a whole set into a fresh `out` on one engine: items, wall time and steady rate."""
    shutil.rmtree(out, ignore_errors=True)
    loaded = read_dataset(kind, path)
    store = ResultStore.open(out)
    config = RunConfig(mode="offline", concurrency=1, timeout=600.0, progress=False)
    start = time.perf_counter()
    stats = grade_items(
        loaded.items,
        loaded.failed,
        store,
        config,
        Recipe("offline", out, answer_timeout),
        engine,
        RayOptions(actors=actors),
    )
    return Timing(stats.total, time.perf_counter() - start, steady_rate(out))


def load() -> str:
    """The machine's load averages, printed beside the timings they may explain."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} CPUs"


def main(argv: list[str] | None = None) -> int:
    """Time the engines on each set and compare their results; 1 when a Ray run's differ from the
    local one's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default="../shared/data", help="folder of the dev sets")
    parser.add_argument("--out", default="/tmp/stepgrade-bench-ray")
    parser.add_argument(
        "--answer-timeout",
        type=float,
        default=30.0,
        help="seconds per answer check: high, so that load cannot change a verdict",
    )
    args = parser.parse_args(argv)
    data, out = Path(args.data), Path(args.out)
    print(f"before: {load()}", flush=True)
    started = connect()  # one Ray for both Ray runs; its start-up is not counted
    timings: dict[tuple[str, str], Timing] = {}
    try:
        for kind, file in SETS:
            for label, engine, actors in RUNS:
                folder = out / f"{engine}{actors or ''}" / kind
                timings[kind, label] = run_once(
                    kind, data / file, folder, engine, actors, args.answer_timeout
                )
                t = timings[kind, label]
                print(f"  {kind:<12} {label:<14} {t.items} items in {t.wall_s:.1f} s", flush=True)
    finally:
        if started:
            import ray

            ray.shutdown()
    print(f"after: {load()}\n")
    print("| set | engine | items | wall (s) | items/s | steady items/s |")
    print("|---|---|---:|---:|---:|---:|")
    for (kind, label), t in timings.items():
        steady = "–" if t.steady_per_s is None else f"{t.steady_per_s:.2f}"
        print(f"| {kind} | {label} | {t.items} | {t.wall_s:.1f} | {t.per_s:.2f} | {steady} |")
    print()
    identical = True
    for kind, _ in SETS:
        one, two = timings[kind, "ray, 1 actor"], timings[kind, "ray, 2 actors"]
        steady = (
            f"{two.steady_per_s / one.steady_per_s:.2f}x"
            if one.steady_per_s and two.steady_per_s
            else "–"
        )
        print(
            f"{kind}: 2 actors / 1 actor = {two.per_s / one.per_s:.2f}x end to end, {steady} steady"
        )
        for run in ("ray1", "ray2"):
            diff = differences(out / "local" / kind, out / run / kind)
            ids = [d.split(": ", 1)[0] for d in diff]
            unsteady = unsteady_items(
                kind, data / dict(SETS)[kind], ids, out / run / kind, args.answer_timeout
            )
            identical &= not diff
            print(
                f"  local vs {run}: "
                + (
                    "identical"
                    if not diff
                    else f"{len(diff)} differ ({', '.join(ids)}); graded again locally, "
                    f"{len(unsteady)} vary or come out as on Ray ({', '.join(unsteady) or 'none'}); "
                    f"e.g. {diff[0][:300]}"
                )
            )
    return 0 if identical else 1


def unsteady_items(
    kind: str, path: Path, ids: list[str], other: Path, answer_timeout: float, times: int = 5
) -> list[str]:
    """Of `ids`, those the local grader grades differently when it grades them again, or grades
    as the run in `other` did: evidence that the grader, not the engine, made the difference."""
    if not ids:
        return []
    items = [i for i in read_dataset(kind, path).items if i.id in set(ids)]
    grader, _ = Recipe("offline", other, answer_timeout).build()
    config = RunConfig(mode="offline", concurrency=1, timeout=600.0, progress=False)
    seen: dict[str, set[str]] = {i.id: set() for i in items}

    def keep(result: ItemResult) -> None:
        seen[result.id].add(
            json.dumps(without_timings(json.loads(result.to_line())), sort_keys=True)
        )

    for _ in range(times):
        asyncio.run(grade_each(grader, items, config, keep, first_alone=False))
    theirs = read_results(other)
    return [
        i
        for i in ids
        if len(seen.get(i, ())) > 1 or json.dumps(theirs[i], sort_keys=True) in seen.get(i, ())
    ]


if __name__ == "__main__":
    sys.exit(main())
