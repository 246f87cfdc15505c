"""Offline grading latency on the bundled examples: cold start, then p50/p95 per example.

    python -m eval_sets.latency [--repeat N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from agent.grader import Grader
from eval_sets.examples import example_names, load_example


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    grader = Grader()
    requests = {name: load_example(name) for name in example_names()}
    for request in requests.values():
        grader.grade(request)
    print(f"cold start (graph, worker, embedding model, first grades): "
          f"{time.perf_counter() - start:.2f} s")
    print(f"{'example':<22} {'steps':>5} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}")
    for name, request in requests.items():
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            report = grader.grade(request)
            times.append((time.perf_counter() - t0) * 1000.0)
        print(f"{name:<22} {len(report.steps):>5} {_percentile(times, 0.5):>8.1f} "
              f"{_percentile(times, 0.95):>8.1f} {statistics.fmean(times):>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
