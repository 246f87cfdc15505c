"""Service benchmark: latency and throughput of the real HTTP service against a fake LLM.

Starts the fake OpenAI-compatible endpoint (`server.fake_llm`, fixed latency L) in this process
and `stepgrade serve` as a subprocess pointed at it, then measures over HTTP:

- p50/p95 grade latency, one client, default mode (target <= 2L + 50 ms) and fused (<= L + 50 ms);
- throughput with 64 concurrent clients, default mode (target >= 90% of 64 / (2L) grades/s);
- offline throughput (no LLM) with `--offline-clients` concurrent clients on this machine's cores.

    python -m eval_sets.service_bench [--latency 0.5] [--requests 30] [--clients 64] [--rounds 4]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from eval_sets.examples import example_names, load_example
from server.examples import ARITHMETIC_SLIP


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


_NODE_MS: list[dict[str, float]] = []
_WAITS: list[float] = []
_RESENT: list[int] = []


def _cpu_by_process(pid: int) -> dict[int, float]:
    """User + system CPU seconds of a process and each of its child processes (Linux /proc)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    seconds: dict[int, float] = {}
    for each in [pid, *map(int, children)]:
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


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _start_service(llm_url: str, port: int, clients: int, workers: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "STEPGRADE_LLM_BASE_URL": llm_url, "STEPGRADE_LLM_MODEL": "fake-model",
           "STEPGRADE_LLM_MAX_RETRIES": "0", "STEPGRADE_LLM_TIMEOUT": "30",
           "STEPGRADE_MAX_CONCURRENCY": str(max(clients, 64)), "STEPGRADE_LOG_LEVEL": "warning",
           "STEPGRADE_WORKERS": str(workers), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    return subprocess.Popen([sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
                            env=env)


def _wait_ready(base: str, proc: subprocess.Popen[bytes], seconds: float = 180.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("the service exited during start-up")
        try:
            if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError("the service did not become ready")


async def _grade(client: httpx.AsyncClient, body: dict[str, Any]) -> tuple[float, dict[str, Any]]:
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
    return elapsed, r.json()


async def _sequential(client: httpx.AsyncClient, body: dict[str, Any], n: int) -> list[float]:
    await _grade(client, body)  # warm-up
    times = []
    for _ in range(n):
        elapsed, report = await _grade(client, body)
        if report["meta"]["degraded"]:
            raise RuntimeError(f"degraded grade: {report['meta']['warnings']}")
        times.append(elapsed)
    return times


async def _concurrent(client: httpx.AsyncClient, bodies: list[dict[str, Any]], clients: int,
                      rounds: int) -> tuple[float, int, int]:
    """`clients` workers, each sending `rounds` requests back to back: (seconds, grades, degraded)."""
    degraded = 0
    waits: list[float] = []

    async def worker(i: int) -> None:
        nonlocal degraded
        for k in range(rounds):
            elapsed, report = await _grade(client, bodies[(i + k) % len(bodies)])
            degraded += bool(report["meta"]["degraded"])
            waits.append(elapsed - report["meta"]["elapsed_ms"] / 1000.0)
            _NODE_MS.append(report["meta"]["node_ms"])

    t0 = time.perf_counter()
    await asyncio.gather(*(worker(i) for i in range(clients)))
    _WAITS[:] = waits
    return time.perf_counter() - t0, clients * rounds, degraded


def _observed_llm_latency(llm_url: str, n: int = 6) -> float:
    """p50 of bare chat calls on one kept-alive connection: L as a client really sees it.

    Back-to-back calls on a reused connection pay ~40 ms of TCP delayed-ACK on loopback here;
    printing this separates the fake's latency from the service's own overhead.
    """
    body = {"model": "fake-model", "messages": [{"role": "user", "content": "ping"}],
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "segmentation", "schema": {}}}}
    times = []
    with httpx.Client(timeout=60) as client:
        for _ in range(n):
            t0 = time.perf_counter()
            client.post(f"{llm_url}/chat/completions", json=body)
            times.append(time.perf_counter() - t0)
    return _percentile(times[1:], 0.5)


async def _run(args: argparse.Namespace, base: str, pid: int, fake_pid: int, observed: float) -> None:
    L = args.latency
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        llm = {**ARITHMETIC_SLIP, "mode": "llm"}
        default = await _sequential(client, llm, args.requests)
        fused = await _sequential(client, {**llm, "fused": True}, args.requests)
        for name, times, bound in (("default (2 round trips)", default, 2 * L + 0.05),
                                   ("fused (1 round trip)", fused, L + 0.05)):
            p50, p95 = _percentile(times, 0.5), _percentile(times, 0.95)
            verdict = "ok" if p95 <= bound else "OVER TARGET"
            trips = 2 if bound > 1.5 * L else 1
            print(f"latency {name:<24} p50 {p50 * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms  "
                  f"target <= {bound * 1000:.0f} ms: {verdict}; service overhead over the "
                  f"observed LLM time: {(p50 - trips * observed) * 1000:.0f} ms")
        await _concurrent(client, [llm], args.clients, 1)  # warm the connection pools
        by_process = _cpu_by_process(pid)
        cpu, fake_cpu, own_cpu = _cpu_seconds(pid), _cpu_seconds(fake_pid), time.process_time()
        busy, total = _machine_busy()
        _NODE_MS.clear()
        seconds, n, degraded = await _concurrent(client, [llm], args.clients, args.rounds)
        busy, total = _machine_busy()[0] - busy, _machine_busy()[1] - total
        fake_cpu, own_cpu = _cpu_seconds(fake_pid) - fake_cpu, time.process_time() - own_cpu
        nodes = {k: statistics.fmean(m.get(k, 0.0) for m in _NODE_MS) for k in _NODE_MS[0]}
        print("  mean node ms: " + ", ".join(f"{k} {v:.0f}" for k, v in nodes.items())
              + f"; mean time outside the graph {statistics.fmean(_WAITS) * 1000:.0f} ms")
        cpu = _cpu_seconds(pid) - cpu
        spread = sorted((v - by_process.get(k, 0.0) for k, v in _cpu_by_process(pid).items()),
                        reverse=True)
        rate, ideal = n / seconds, args.clients / (2 * L)
        verdict = "ok" if rate >= 0.9 * ideal else "UNDER TARGET"
        print(f"throughput {args.clients} clients, default mode: {rate:6.1f} grades/s "
              f"({n} grades in {seconds:.2f} s, {degraded} degraded; service CPU "
              f"{cpu / n * 1000:.0f} ms/grade, {len(_RESENT)} resent); "
              f"target >= 90% of {ideal:.1f}: {verdict}")
        # On one machine the service, the fake LLM and the clients share the cores: when they
        # are all busy, CPU rather than the service's concurrency bounds the rate.
        print(f"  machine CPU busy {busy / max(total, 1) * 100:.0f}% of {os.cpu_count()} cores; "
              f"per grade: service {cpu / n * 1000:.0f} ms, fake LLM {fake_cpu / n * 1000:.0f} ms, "
              f"benchmark client {own_cpu / n * 1000:.0f} ms; service CPU by process "
              + " / ".join(f"{x:.1f}" for x in spread) + " s")
        offline = [load_example(name).model_dump(mode="json") | {"mode": "offline"}
                   for name in example_names()]
        await _concurrent(client, offline, args.offline_clients, 1)
        cpu = _cpu_seconds(pid)
        seconds, n, _ = await _concurrent(client, offline, args.offline_clients,
                                          args.offline_rounds)
        cpu = _cpu_seconds(pid) - cpu
        print(f"throughput offline, {args.offline_clients} clients, {os.cpu_count()} cores: "
              f"{n / seconds:6.1f} grades/s ({n} grades in {seconds:.2f} s, "
              f"service CPU {cpu / n * 1000:.0f} ms/grade)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.5, help="fake LLM latency L (s)")
    parser.add_argument("--requests", type=int, default=30, help="sequential grades per mode")
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=4, help="grades per concurrent client")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                        help="service processes (default: one per core)")
    parser.add_argument("--offline-clients", type=int, default=4)
    parser.add_argument("--offline-rounds", type=int, default=15)
    args = parser.parse_args(argv)
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    llm_port = _free_port()
    # The fake LLM gets its own process: sharing a GIL with the clients would slow it down.
    fake = subprocess.Popen([sys.executable, "-m", "server.fake_llm", "--port", str(llm_port),
                             "--latency", str(args.latency)])
    print(f"fake LLM latency L = {args.latency * 1000:.0f} ms; service on {base} "
          f"with {args.workers} worker process(es)")
    proc = _start_service(f"http://127.0.0.1:{llm_port}/v1", port, args.clients, args.workers)
    try:
        _wait_ready(base, proc)
        observed = _observed_llm_latency(f"http://127.0.0.1:{llm_port}/v1")
        print(f"fake LLM observed by a bare client: {observed * 1000:.1f} ms per call")
        asyncio.run(_run(args, base, proc.pid, fake.pid, observed))
    finally:
        for child in (proc, fake):
            child.terminate()
            try:
                child.wait(timeout=20)
            except subprocess.TimeoutExpired:
                child.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
