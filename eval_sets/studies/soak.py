"""Soak: many clients for a long time against a fake LLM that fails one call in ten.

Starts the fake OpenAI-compatible endpoint (`eval_sets/fakes/openai_server.py`) in this
process, with a fault drawn per call (HTTP
500, 429, a call that never answers, a malformed answer, a body that is not JSON), and
`stepgrade serve` as a subprocess pointed at it; then `--clients` clients (spread over
`--client-processes` processes) grade in LLM mode back to back for `--minutes`. It reports:

- HTTP 5xx answers (must be 0) and lost requests, sent without any answer (must be 0);
- the share of degraded reports (an LLM failure graded offline, `meta.degraded`);
- p50/p95 latency of the answered requests;
- the service's resident memory (all its processes) at start, after the first minute and at the
  end: growth after the first minute must stay under 100 MB.

    stepgrade study soak [--minutes 10] [--clients 64] [--fault-rate 0.1] [--workers 2]

Exit status 1 when a target is missed. Not part of `make test` (`make soak`).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from eval_sets.fakes.openai_server import FakeOpenAI
from eval_sets.plugins import register_study
from eval_sets.processes import free_port, percentile, start_service, stop, tree, wait_ready
from eval_sets.study_cli import positive_float, positive_int, run_study
from example_requests import ARITHMETIC_SLIP

MAX_RSS_GROWTH_MB = 100.0


@dataclass
class Outcome:
    """What the clients of one process saw."""

    ok: int = 0
    degraded: int = 0
    server_errors: int = 0
    client_errors: int = 0
    lost: int = 0
    latencies: list[float] = field(default_factory=list)
    examples: list[str] = field(default_factory=list)

    def merge(self, other: Outcome) -> None:
        """Add what the clients of another process saw (examples up to five in all)."""
        for name in ("ok", "degraded", "server_errors", "client_errors", "lost"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.latencies += other.latencies
        self.examples += other.examples[: max(0, 5 - len(self.examples))]


async def _clients(base: str, clients: int, until: float, timeout: float) -> Outcome:
    outcome = Outcome()
    body = {**ARITHMETIC_SLIP, "mode": "llm"}
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)

    async def client(http: httpx.AsyncClient) -> None:
        while time.time() < until:
            start = time.perf_counter()
            try:
                r = await http.post("/grade", json=body)
            except httpx.HTTPError as err:  # no answer at all: a lost request
                outcome.lost += 1
                outcome.examples.append(f"lost: {type(err).__name__}: {err}")
                continue
            outcome.latencies.append(time.perf_counter() - start)
            if r.status_code >= 500:
                outcome.server_errors += 1
                outcome.examples.append(f"{r.status_code}: {r.text[:200]}")
            elif r.status_code >= 400:
                outcome.client_errors += 1
                outcome.examples.append(f"{r.status_code}: {r.text[:200]}")
            else:
                outcome.ok += 1
                outcome.degraded += bool(r.json()["meta"]["degraded"])

    async with httpx.AsyncClient(base_url=base, timeout=timeout, limits=limits) as http:
        await asyncio.gather(*(client(http) for _ in range(clients)))
    return outcome


def _client_process(base: str, clients: int, until: float, timeout: float) -> Outcome:
    return asyncio.run(_clients(base, clients, until, timeout))


def rss_mb(pid: int) -> float:
    """Resident memory of a process and its descendants, in MB."""
    total = 0
    for each in tree(pid):
        try:
            status = Path(f"/proc/{each}/status").read_text()
        except FileNotFoundError:
            continue
        total += next(
            (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0
        )
    return total / 1024.0


def _sample_rss(pid: int, start: float, marks: dict[str, float], done: threading.Event) -> None:
    """RSS after the first minute, and the peak, while the load runs."""
    while not done.wait(1.0):
        now = rss_mb(pid)
        marks["peak"] = max(marks.get("peak", 0.0), now)
        if "minute" not in marks and time.time() - start >= 60:
            marks["minute"] = now


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    parser.add_argument("--minutes", type=positive_float, default=10.0)
    parser.add_argument("--clients", type=positive_int, default=64)
    parser.add_argument("--client-processes", type=positive_int, default=2)
    parser.add_argument("--fault-rate", type=float, default=0.1)
    parser.add_argument("--latency", type=float, default=0.5, help="fake LLM latency (s)")
    parser.add_argument(
        "--llm-timeout",
        type=positive_float,
        default=10.0,
        help="the service's LLM call timeout (s): how long a hanging call holds",
    )
    parser.add_argument(
        "--request-timeout",
        type=positive_float,
        default=120.0,
        help="client timeout (s); no answer by then counts as lost",
    )
    parser.add_argument("--workers", type=positive_int, default=2)
    parser.add_argument("--seed", type=int, default=0)


@register_study("soak", arguments=add_arguments)
def soak(args: argparse.Namespace) -> int:
    """Run the soak (module docstring) and report; 1 when a target is missed."""
    port, llm_port = free_port(), free_port()
    base = f"http://127.0.0.1:{port}"
    fake = FakeOpenAI(
        port=llm_port, latency=args.latency, fault_rate=args.fault_rate, seed=args.seed
    )
    with fake as llm:
        service = start_service(
            llm.base_url,
            port,
            workers=args.workers,
            max_concurrency=max(args.clients, 64),
            env={"STEPGRADE_LLM_TIMEOUT": str(args.llm_timeout), "STEPGRADE_LLM_MAX_RETRIES": "1"},
            stdout=subprocess.DEVNULL,
        )
        try:
            wait_ready(f"{base}/readyz", service, 300)
            start = time.time()
            marks = {"start": rss_mb(service.pid)}
            done = threading.Event()
            sampler = threading.Thread(target=_sample_rss, args=(service.pid, start, marks, done))
            sampler.start()
            until = start + 60 * args.minutes
            processes = max(1, min(args.client_processes, args.clients))
            shares = [
                args.clients // processes + (i < args.clients % processes) for i in range(processes)
            ]
            total = Outcome()
            context = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(processes, mp_context=context) as pool:
                futures = [
                    pool.submit(_client_process, base, n, until, args.request_timeout)
                    for n in shares
                    if n
                ]
                for future in futures:
                    total.merge(future.result())
            done.set()
            sampler.join()
            marks["end"] = rss_mb(service.pid)
            return _report(args, total, marks, llm, time.time() - start)
        finally:
            stop(service, grace=30)


def _report(
    args: argparse.Namespace, total: Outcome, marks: dict[str, float], llm: Any, seconds: float
) -> int:
    answered = total.ok + total.server_errors + total.client_errors
    growth = marks["end"] - marks.get("minute", marks["start"])
    injected = sum(llm.injected.values())
    print(
        f"soak: {args.clients} clients for {seconds / 60:.1f} min, {args.workers} worker(s), "
        f"fake LLM latency {args.latency * 1000:.0f} ms, {len(llm.seen)} LLM calls of which "
        f"{injected} faulty ({injected / max(len(llm.seen), 1):.1%}: "
        + ", ".join(f"{k} {v}" for k, v in llm.injected.items())
        + ")"
    )
    print(
        f"requests: {answered + total.lost} sent, {total.ok} graded "
        f"({answered / max(seconds, 1e-9):.1f}/s), {total.degraded} degraded "
        f"({total.degraded / max(total.ok, 1):.1%}), 5xx {total.server_errors}, "
        f"4xx {total.client_errors}, lost {total.lost}"
    )
    if total.latencies:
        print(
            f"latency: p50 {percentile(total.latencies, 0.5) * 1000:.0f} ms, "
            f"p95 {percentile(total.latencies, 0.95) * 1000:.0f} ms, "
            f"max {max(total.latencies) * 1000:.0f} ms"
        )
    print(
        f"service RSS (all processes): start {marks['start']:.0f} MB, after 1 min "
        f"{marks.get('minute', float('nan')):.0f} MB, end {marks['end']:.0f} MB, peak "
        f"{marks.get('peak', marks['end']):.0f} MB; growth after the first minute "
        f"{growth:+.0f} MB (target < {MAX_RSS_GROWTH_MB:.0f})"
    )
    for example in total.examples:
        print(f"  e.g. {example}")
    missed = [
        name
        for name, bad in (
            ("5xx", total.server_errors),
            ("lost", total.lost),
            ("4xx", total.client_errors),
            ("memory", growth >= MAX_RSS_GROWTH_MB),
        )
        if bad
    ]
    print("targets: " + ("all met" if not missed else "MISSED " + ", ".join(missed)))
    return 1 if missed else 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.soak`: the study over this process's arguments."""
    return run_study("soak", argv)


if __name__ == "__main__":
    sys.exit(main())
