"""The child processes a benchmark or a test starts on this machine: a free loopback port for
each, `stepgrade serve` pointed at a fake LLM, a wait until it answers, its process tree, and a
stop that always ends them (asked first, killed after `grace` seconds); and the percentile the
benchmarks report their latencies with."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import IO

import httpx


class NotReadyError(RuntimeError):
    """A started server exited, or did not answer in time."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def stop(process: subprocess.Popen, grace: float = 20.0) -> None:
    """SIGTERM, then SIGKILL if it is still running after `grace` seconds; reaped either way."""
    process.terminate()
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def stepgrade_command() -> list[str]:
    """The `stepgrade` command of this interpreter's environment (its console script when
    installed, else the same entry point run as a module)."""
    script = Path(sys.executable).with_name("stepgrade")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "server.cli"]


# A cassette answers from recorded calls: a benchmark against a live (fake) judge must not use one.
CASSETTE_SETTINGS = ("STEPGRADE_LLM_RECORD", "STEPGRADE_LLM_REPLAY")


def llm_grading_env(base_url: str, model: str, drop: tuple[str, ...] = ()) -> dict[str, str]:
    """This process's environment for a grading run against the judge at `base_url`, without a
    cassette and without the `drop` settings."""
    env = {k: v for k, v in os.environ.items() if k not in (*CASSETTE_SETTINGS, *drop)}
    env.update(STEPGRADE_LLM_BASE_URL=base_url, STEPGRADE_LLM_MODEL=model)
    return env


def start_service(
    llm_url: str | None,
    port: int,
    *,
    workers: int = 1,
    max_concurrency: int | None = None,
    env: Mapping[str, str] | None = None,
    drop: tuple[str, ...] = (),
    stdout: int | IO[bytes] | None = None,
    stderr: int | IO[bytes] | None = None,
    new_session: bool = False,
) -> subprocess.Popen[bytes]:
    """`stepgrade serve` on 127.0.0.1:`port`: in LLM mode against `llm_url` (the fake model),
    or, with None, with no model configured (every STEPGRADE_LLM_* setting of this environment
    left out).

    Offline (no hub) and quiet; `env` adds or overrides STEPGRADE_* settings of one benchmark,
    `drop` leaves settings of this environment out; `new_session` starts it as the leader of its
    own process group (so that a test can kill the service with its workers at once).
    """
    full = {
        k: v
        for k, v in os.environ.items()
        if k not in drop and (llm_url is not None or not k.startswith("STEPGRADE_LLM"))
    }
    if llm_url is not None:
        full |= {"STEPGRADE_LLM_BASE_URL": llm_url, "STEPGRADE_LLM_MODEL": "fake-model"}
    if max_concurrency is not None:
        full["STEPGRADE_MAX_CONCURRENCY"] = str(max_concurrency)
    full |= {
        "STEPGRADE_LOG_LEVEL": "warning",
        "STEPGRADE_WORKERS": str(workers),
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        **(env or {}),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
        env=full,
        stdout=stdout,
        stderr=stderr,
        start_new_session=new_session,
    )


def wait_ready(
    url: str, process: subprocess.Popen[bytes], seconds: float = 180.0, name: str = "the service"
) -> None:
    """Poll `url` until it answers 200: a benchmark measures a server that is up, not its start.

    Raises:
        NotReadyError: `process` exited first, or `seconds` passed.
    """
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise NotReadyError(f"{name} exited with {process.returncode} during start-up")
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise NotReadyError(f"{name} did not answer in {seconds:g} s")


@contextmanager
def fake_model(
    module: str, args: Sequence[str], name: str, tool: str, seconds: float = 60.0
) -> Iterator[str]:
    """The fake OpenAI-compatible model `python -m module --port P *args` on a free port; yields
    its base URL (`http://127.0.0.1:P/v1`) once it answers, and stops it on the way out.

    Raises:
        SystemExit: it exited or did not answer in `seconds` (the message starts with `tool`).
    """
    port = free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    server = subprocess.Popen([sys.executable, "-m", module, "--port", str(port), *args])
    try:
        try:
            wait_ready(f"{base_url}/models", server, seconds, name=name)
        except NotReadyError as err:
            raise SystemExit(f"{tool}: {err}") from err
        yield base_url
    finally:
        stop(server, grace=10)


def tree(pid: int) -> list[int]:
    """A process and all its descendants (Linux /proc): the service's workers and theirs.

    A child is listed under the thread that started it, so every task's `children` is read, not
    only the main thread's (a math-verify worker started from a worker thread would be missed).
    """
    pids, i = [pid], 0
    while i < len(pids):
        for task in Path(f"/proc/{pids[i]}/task").glob("*"):
            try:
                pids += map(int, (task / "children").read_text().split())
            except FileNotFoundError:
                pass
        i += 1
    return pids


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank `q` quantile (0 <= q <= 1) the benchmarks report; 0.0 for no values."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0
