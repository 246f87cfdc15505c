"""Service benchmark: latency and throughput of the real HTTP service against a fake LLM.

For each latency L (`--latency`, repeatable; default 2 s and 0.5 s) it starts the fake
OpenAI-compatible endpoint of the tests (`eval_sets/fakes/openai_server.py`, answering after L) in
its own processes and `stepgrade serve` pointed at it, then measures over HTTP:

- p50/p95 grade latency, one client, default mode (target <= 2L + 50 ms) and fused (<= L + 50 ms);
- throughput with 64 concurrent clients, default mode (target >= 95% of 64 / (2L) grades/s),
  the clients spread over `--client-processes` processes so that they do not queue each other,
  and the service's CPU per LLM-mode grade (target <= 20 ms). Measured twice: in the steady
  state (the target), the clients' first requests spread evenly over one ideal grade time (2L),
  as users arrive, the rate the sum of each client's grades over its own time; and as a burst,
  every client starting at the same instant, the rate all grades over the time to the last. In a
  burst every grade does its CPU work at the same moments (all 64 before the first LLM round trip,
  all 64 after it), so its rate is bounded by the CPU of 64 grades on this machine's cores, not
  by the service's concurrency: 64 x 20 ms of CPU on 2 cores shared with the fake LLM and the
  clients adds about 0.7 s to every round of 2L;
- what "ideal" and "CPU per grade" mean: ideal is every client back to back with nothing but
  the two LLM round trips, 64 / (2L) grades/s. The service's CPU is that of its whole process
  tree (the supervisor, every worker and their math-verify workers) over the measured run,
  divided by the grades; the fake LLM's and the benchmark clients' CPU per grade are printed
  beside it, not counted in it. They share the machine's cores with the service: when the
  machine is busy, CPU rather than the service's concurrency bounds the rate;
- offline throughput (no LLM) with `--offline-clients` concurrent clients on this machine's cores;
- the grade store's cost (target: offline p50 grows by at most 2 ms): one client's offline
  grades against a service with the store on (SQLite, a temporary file) and one with it off,
  in alternating blocks so that the machine's drift falls on both alike (`--store-requests`).
A table of both latencies ends the run.

    stepgrade study service_bench [--latency 2 --latency 0.5] [--requests 30] [--clients 64]
        [--rounds 4] [--client-processes 4] [--fake-processes 2]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from eval_sets.plugins import register_study
from eval_sets.processes import free_port, percentile, start_service, stop, tree, wait_ready
from eval_sets.study_cli import positive_float, positive_int, run_study
from example_requests import ARITHMETIC_SLIP, example_names, load_example

_RESENT: list[int] = []


def _cpu_by_process(pid: int) -> dict[int, float]:
    """User + system CPU seconds of a process and each of its descendants (Linux /proc)."""
    seconds: dict[int, float] = {}
    for each in tree(pid):
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        seconds[each] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return seconds


def _cpu_seconds(pid: int) -> float:
    return sum(_cpu_by_process(pid).values())


def _machine_busy() -> tuple[float, float]:
    """(busy, total) CPU jiffies of the whole machine so far (Linux /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return sum(fields) - idle, sum(fields)


async def _grade(
    client: httpx.AsyncClient, body: dict[str, Any]
) -> tuple[float, dict[str, Any], float]:
    """(seconds the client waited, the report, seconds the service says it held the request)."""
    t0 = time.perf_counter()
    try:
        r = await client.post("/grade", json=body)
    except httpx.TransportError:
        # An idle keep-alive connection closed by the server as we reused it: resend once.
        _RESENT.append(1)
        r = await client.post("/grade", json=body)
    elapsed = time.perf_counter() - t0
    if r.status_code != 200:
        raise RuntimeError(f"HTTP {r.status_code}: {r.text[:200]}")
    served = float(r.headers["server-timing"].split("dur=")[1]) / 1000.0
    return elapsed, r.json(), served


async def _sequential(client: httpx.AsyncClient, body: dict[str, Any], n: int) -> list[float]:
    await _grade(client, body)  # warm-up
    times = []
    for _ in range(n):
        elapsed, report, _ = await _grade(client, body)
        if report["meta"]["degraded"]:
            raise RuntimeError(f"degraded grade: {report['meta']['warnings']}")
        times.append(elapsed)
    return times


@dataclass
class Load:
    """What `clients` concurrent clients saw: the rate and where a grade's time went."""

    seconds: float = 0.0
    grades: int = 0
    degraded: int = 0
    resent: int = 0
    client_rate: float = 0.0  # the sum over clients of grades / the client's own time
    client_cpu: float = 0.0
    waits: list[float] = field(default_factory=list)  # client-observed time minus graph time
    served_waits: list[float] = field(default_factory=list)  # the service's part of it
    node_ms: list[dict[str, float]] = field(default_factory=list)

    def merge(self, other: Load) -> None:
        """Add another client process's grades and times (the caller sets `seconds`)."""
        self.grades += other.grades
        self.degraded += other.degraded
        self.resent += other.resent
        self.client_rate += other.client_rate
        self.client_cpu += other.client_cpu
        self.waits += other.waits
        self.served_waits += other.served_waits
        self.node_ms += other.node_ms


async def _concurrent(
    base: str, bodies: list[dict[str, Any]], offsets: list[float], rounds: int
) -> Load:
    """A client per offset, on a connection each, starting that many seconds late and then
    sending `rounds` requests back to back."""
    load = Load()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    cpu, resent = time.process_time(), len(_RESENT)

    async def worker(client: httpx.AsyncClient, i: int) -> None:
        await asyncio.sleep(offsets[i])
        start = time.perf_counter()
        for k in range(rounds):
            elapsed, report, served = await _grade(client, bodies[(i + k) % len(bodies)])
            graph = report["meta"]["elapsed_ms"] / 1000.0
            load.degraded += bool(report["meta"]["degraded"])
            load.waits.append(elapsed - graph)
            load.served_waits.append(served - graph)
            load.node_ms.append(report["meta"]["node_ms"])
        load.client_rate += rounds / (time.perf_counter() - start)

    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        t0 = time.perf_counter()
        await asyncio.gather(*(worker(client, i) for i in range(len(offsets))))
        load.seconds = time.perf_counter() - t0
    load.grades, load.resent = len(offsets) * rounds, len(_RESENT) - resent
    load.client_cpu = time.process_time() - cpu
    return load


def _client_process(
    base: str, bodies: list[dict[str, Any]], offsets: list[float], rounds: int, start_at: float
) -> tuple[Load, float]:
    """One client process: waits for the common start, then runs its share; (load, end time)."""
    time.sleep(max(0.0, start_at - time.time()))
    load = asyncio.run(_concurrent(base, bodies, offsets, rounds))
    return load, time.time()


def _spread(
    pool: ProcessPoolExecutor,
    processes: int,
    base: str,
    bodies: list[dict[str, Any]],
    clients: int,
    rounds: int,
    ramp: float = 0.0,
) -> Load:
    """`clients` clients over `processes` client processes, the k-th starting k/clients of
    `ramp` seconds after the common start (0: all together).

    One asyncio client process decoding 64 reports that arrive together queues them behind each
    other: at L = 2 s that put ~170 ms per grade between the service's answer and the client,
    time the service's own Server-Timing did not contain.
    """
    start_at = time.time() + 1.0
    offsets = [k * ramp / clients for k in range(clients)]
    # Client k in process k % processes: each process's clients spread over the whole ramp.
    shares = [offsets[i::processes] for i in range(processes)]
    futures = [
        pool.submit(_client_process, base, bodies, share, rounds, start_at)
        for share in shares
        if share
    ]
    total = Load()
    ends = []
    for future in futures:
        load, end = future.result()
        total.merge(load)
        ends.append(end)
    total.seconds = max(ends) - start_at
    return total


def _observed_llm_latency(llm_url: str, n: int = 6) -> float:
    """p50 of bare chat calls on one kept-alive connection: L as a client really sees it.

    Back-to-back calls on a reused connection pay ~40 ms of TCP delayed-ACK on loopback here;
    printing this separates the fake's latency from the service's own overhead.
    """
    body = {
        "model": "fake-model",
        "messages": [{"role": "user", "content": "ping"}],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "segmentation", "schema": {}},
        },
    }
    times = []
    with httpx.Client(timeout=60) as client:
        for _ in range(n):
            t0 = time.perf_counter()
            client.post(f"{llm_url}/chat/completions", json=body)
            times.append(time.perf_counter() - t0)
    return percentile(times[1:], 0.5)


async def _latency(base: str, L: float, requests: int, observed: float) -> None:
    """p50/p95 of one client grading back to back, default mode and fused."""
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        llm = {**ARITHMETIC_SLIP, "mode": "llm"}
        default = await _sequential(client, llm, requests)
        fused = await _sequential(client, {**llm, "fused": True}, requests)
    for name, times, bound in (
        ("default (2 round trips)", default, 2 * L + 0.05),
        ("fused (1 round trip)", fused, L + 0.05),
    ):
        p50, p95 = percentile(times, 0.5), percentile(times, 0.95)
        verdict = "ok" if p95 <= bound else "OVER TARGET"
        trips = 2 if bound > 1.5 * L else 1
        print(
            f"latency {name:<24} p50 {p50 * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms  "
            f"target <= {bound * 1000:.0f} ms: {verdict}; service overhead over the "
            f"observed LLM time: {(p50 - trips * observed) * 1000:.0f} ms"
        )


THROUGHPUT_TARGET = 0.95  # of the ideal 64 / (2L) grades/s
CPU_TARGET_MS = 20.0  # service CPU per LLM-mode grade


@dataclass(frozen=True)
class Result:
    """One latency's headline: the steady-state throughput against its ideal, the service CPU
    per grade, and the burst's rate beside them."""

    latency: float
    rate: float
    ideal: float
    cpu_ms: float
    degraded: int
    burst_rate: float
    burst_cpu_ms: float


@dataclass(frozen=True)
class Measured:
    """One load run: what the clients saw and the CPU it cost."""

    load: Load
    rate: float
    cpu_ms: float


def _measure(
    pool: ProcessPoolExecutor,
    processes: int,
    args: argparse.Namespace,
    base: str,
    pid: int,
    fake_pids: list[int],
    ramp: float,
) -> Measured:
    llm = {**ARITHMETIC_SLIP, "mode": "llm"}
    by_process = _cpu_by_process(pid)
    cpu, fake_cpu = _cpu_seconds(pid), sum(map(_cpu_seconds, fake_pids))
    busy, total = _machine_busy()
    load = _spread(pool, processes, base, [llm], args.clients, args.rounds, ramp)
    busy, total = _machine_busy()[0] - busy, _machine_busy()[1] - total
    fake_cpu = sum(map(_cpu_seconds, fake_pids)) - fake_cpu
    cpu = _cpu_seconds(pid) - cpu
    n = load.grades
    rate = load.client_rate if ramp else n / load.seconds
    name = f"steady (first requests over {ramp:.1f} s)" if ramp else "burst (all at once)"
    print(
        f"throughput {args.clients} clients, {name}: {rate:6.1f} grades/s ({n} grades, "
        f"{load.seconds:.2f} s, {load.degraded} degraded, {load.resent} resent)"
    )
    nodes = {k: statistics.fmean(m.get(k, 0.0) for m in load.node_ms) for k in load.node_ms[0]}
    print(
        "  mean node ms: "
        + ", ".join(f"{k} {v:.0f}" for k, v in nodes.items())
        + f"; mean time outside the graph {statistics.fmean(load.waits) * 1000:.0f} ms, "
        f"of which {statistics.fmean(load.served_waits) * 1000:.0f} ms in the service "
        "(Server-Timing) and the rest between the service and the benchmark clients"
    )
    spread = sorted(
        (v - by_process.get(k, 0.0) for k, v in _cpu_by_process(pid).items()), reverse=True
    )
    # On one machine the service, the fake LLM and the clients share the cores: when they
    # are all busy, CPU rather than the service's concurrency bounds the rate.
    print(
        f"  machine CPU busy {busy / max(total, 1) * 100:.0f}% of {os.cpu_count()} cores; "
        f"per grade: service {cpu / n * 1000:.1f} ms, fake LLM {fake_cpu / n * 1000:.1f} ms, "
        f"benchmark clients {load.client_cpu / n * 1000:.1f} ms; service CPU by process "
        + " / ".join(f"{x:.1f}" for x in spread)
        + " s"
    )
    return Measured(load, rate, cpu / n * 1000)


def _throughput(
    args: argparse.Namespace, L: float, base: str, pid: int, fake_pids: list[int]
) -> Result:
    llm = {**ARITHMETIC_SLIP, "mode": "llm"}
    processes = max(1, min(args.client_processes, args.clients))
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        _spread(pool, processes, base, [llm], args.clients, 1)  # warm clients and pools
        steady = _measure(pool, processes, args, base, pid, fake_pids, ramp=2 * L)
        burst = _measure(pool, processes, args, base, pid, fake_pids, ramp=0.0)
        result = Result(
            L,
            steady.rate,
            args.clients / (2 * L),
            steady.cpu_ms,
            steady.load.degraded + burst.load.degraded,
            burst.rate,
            burst.cpu_ms,
        )
        print(
            f"throughput, default mode: {_verdicts(result)}; the burst "
            f"{burst.rate / result.ideal * 100:.0f}% of the ideal"
        )
        if args.offline_rounds:
            _offline(args, pool, base, pid)
    return result


def _verdicts(result: Result) -> str:
    rate_ok = result.rate >= THROUGHPUT_TARGET * result.ideal
    cpu_ok = result.cpu_ms <= CPU_TARGET_MS
    return (
        f"steady {result.rate / result.ideal * 100:.0f}% of the ideal {result.ideal:.1f} "
        f"(target >= {THROUGHPUT_TARGET * 100:.0f}%: {'ok' if rate_ok else 'UNDER TARGET'}); "
        f"service CPU {result.cpu_ms:.1f} ms/grade (target <= {CPU_TARGET_MS:.0f}: "
        f"{'ok' if cpu_ok else 'OVER TARGET'})"
    )


def _offline(args: argparse.Namespace, pool: ProcessPoolExecutor, base: str, pid: int) -> None:
    offline = [
        load_example(name).model_dump(mode="json") | {"mode": "offline"} for name in example_names()
    ]
    _spread(pool, 1, base, offline, args.offline_clients, 1)
    cpu = _cpu_seconds(pid)
    load = _spread(pool, 1, base, offline, args.offline_clients, args.offline_rounds)
    cpu = _cpu_seconds(pid) - cpu
    print(
        f"throughput offline, {args.offline_clients} clients, {os.cpu_count()} cores: "
        f"{load.grades / load.seconds:6.1f} grades/s ({load.grades} grades in "
        f"{load.seconds:.2f} s, service CPU {cpu / load.grades * 1000:.0f} ms/grade)"
    )


STORE_TARGET_MS = 2.0
STORE_BLOCKS = 10


def _store_overhead(args: argparse.Namespace) -> None:
    """Offline p50/p95 of one client, store on against store off, blocks alternating."""
    body = {**ARITHMETIC_SLIP, "mode": "offline"}
    times: dict[str, list[float]] = {"on": [], "off": []}
    with tempfile.TemporaryDirectory(prefix="stepgrade-store-bench-") as data:
        services = {}
        try:
            for store in times:
                port = free_port()
                services[store] = (
                    f"http://127.0.0.1:{port}",
                    start_service(
                        None, port, env={"STEPGRADE_STORE": store, "STEPGRADE_DATA_DIR": data}
                    ),
                )
            for base, proc in services.values():
                wait_ready(f"{base}/readyz", proc)
            block = max(1, args.store_requests // STORE_BLOCKS)
            for _ in range(STORE_BLOCKS):
                for store, (base, _) in services.items():
                    times[store] += asyncio.run(_sequential_at(base, body, block))
        finally:
            for _, proc in services.values():
                stop(proc)
    p50 = {store: percentile(t, 0.5) * 1000 for store, t in times.items()}
    p95 = {store: percentile(t, 0.95) * 1000 for store, t in times.items()}
    grown = p50["on"] - p50["off"]
    print(
        f"\ngrade store, offline, one client, {len(times['on'])} grades each: p50 store on "
        f"{p50['on']:.1f} ms, off {p50['off']:.1f} ms ({grown:+.1f} ms; target <= "
        f"{STORE_TARGET_MS:.0f}: {'ok' if grown <= STORE_TARGET_MS else 'OVER TARGET'}); "
        f"p95 on {p95['on']:.1f} ms, off {p95['off']:.1f} ms"
    )


async def _sequential_at(base: str, body: dict[str, Any], n: int) -> list[float]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        return await _sequential(client, body, n)


def _fake_llm(port: int, latency: float) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "eval_sets.fakes.openai_server",
            "--port",
            str(port),
            "--latency",
            str(latency),
            "--reuse-port",
        ]
    )


def _run(args: argparse.Namespace, L: float) -> Result:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    llm_port = free_port()
    # The fake LLM gets its own processes: one Python process answering ~200 calls that arrive
    # together queues them behind each other for ~70 ms, which a real LLM server would not add.
    fakes = [_fake_llm(llm_port, L) for _ in range(max(1, args.fake_processes))]
    print(
        f"\nfake LLM latency L = {L * 1000:.0f} ms ({len(fakes)} process(es)); "
        f"service on {base} with {args.workers} worker process(es)"
    )
    proc = start_service(
        f"http://127.0.0.1:{llm_port}/v1",
        port,
        workers=args.workers,
        max_concurrency=max(args.clients, 64),
        env={"STEPGRADE_LLM_TIMEOUT": "30"},
    )
    try:
        wait_ready(f"{base}/readyz", proc)
        observed = _observed_llm_latency(f"http://127.0.0.1:{llm_port}/v1")
        print(f"fake LLM observed by a bare client: {observed * 1000:.1f} ms per call")
        asyncio.run(_latency(base, L, args.requests, observed))
        return _throughput(args, L, base, proc.pid, [fake.pid for fake in fakes])
    finally:
        for child in (proc, *fakes):
            stop(child)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    parser.add_argument(
        "--latency",
        type=positive_float,
        action="append",
        help="fake LLM latency L in seconds; repeat for several (default: 2, 0.5)",
    )
    parser.add_argument(
        "--requests", type=positive_int, default=30, help="sequential grades per mode"
    )
    parser.add_argument("--clients", type=positive_int, default=64)
    parser.add_argument(
        "--rounds", type=positive_int, default=4, help="grades per concurrent client"
    )
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=os.cpu_count() or 1,
        help="service processes (default: one per core)",
    )
    parser.add_argument(
        "--client-processes",
        type=positive_int,
        default=4,
        help="processes the concurrent clients are spread over",
    )
    parser.add_argument(
        "--fake-processes",
        type=positive_int,
        default=2,
        help="processes of the fake LLM, sharing its port",
    )
    parser.add_argument("--offline-clients", type=positive_int, default=4)
    parser.add_argument("--offline-rounds", type=int, default=15, help="0: no offline run")
    parser.add_argument(
        "--store-requests",
        type=int,
        default=400,
        help="offline grades per service, store on and off (0: not measured)",
    )


@register_study("service_bench", arguments=add_arguments)
def service_bench(args: argparse.Namespace) -> int:
    """Measure at each latency (and the store's cost), then print the throughput table."""
    results = [_run(args, L) for L in args.latency or [2.0, 0.5]]
    if args.store_requests:
        _store_overhead(args)
    print(f"\n{args.clients}-client throughput, default mode (2 LLM round trips per grade):")
    print(
        f"{'L':>6}  {'ideal':>6}  {'steady':>14}  {'CPU ms/grade':>12}  {'burst':>14}  "
        f"{'CPU ms/grade':>12}  degraded"
    )
    for r in results:
        print(
            f"{r.latency:5.1f}s  {r.ideal:6.1f}  {r.rate:7.1f} ({r.rate / r.ideal * 100:3.0f}%)  "
            f"{r.cpu_ms:12.1f}  {r.burst_rate:7.1f} ({r.burst_rate / r.ideal * 100:3.0f}%)  "
            f"{r.burst_cpu_ms:12.1f}  {r.degraded}"
        )
    print(
        f"targets (steady state): >= {THROUGHPUT_TARGET * 100:.0f}% of ideal, <= "
        f"{CPU_TARGET_MS:.0f} ms CPU per grade; load now: {os.getloadavg()[0]:.1f} (1 min) on {os.cpu_count()} cores"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.service_bench`: the study over this process's arguments."""
    return run_study("service_bench", argv)


if __name__ == "__main__":
    sys.exit(main())
