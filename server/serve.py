"""Running the service under uvicorn: one process, or several under uvicorn's own supervisor.

Several workers share one socket, bound by the parent and listened on by each worker only after
its warm-up (uvicorn creates a worker's server after its lifespan start-up): before the first
worker can grade, connections are refused rather than left waiting; after it, every connection
is taken by a worker that can grade, and a worker that dies or restarts loses none, since the
others accept from the same queue. `/readyz` is ready only when every worker is
(`server.core.worker_ready`).

One shared socket rather than one SO_REUSEPORT socket per worker: with a socket per worker, the
connections queued on a dying worker's socket are dropped, and a socket that listens before its
worker has warmed up takes connections nobody accepts yet.

The socket is bound before anything loads, one worker or several: a port already taken is
reported at once, naming STEPGRADE_PORT, not after the warm-up.
"""

from __future__ import annotations

import errno
import os
import socket
import tempfile
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

from server.core.settings import Settings
from server.core.worker_ready import RUN_DIR_ENV

# uvicorn kills a worker that does not answer its supervisor's ping within this time (default
# 5 s). A new worker answers only once it has re-imported `stepgrade`'s main module (spawn), and
# a busy one only when its pinging thread gets the GIL: on a loaded machine both took longer
# than 5 s, and uvicorn killed and restarted healthy workers in a loop (the service then never
# became ready; the intermittent failure of the two-worker test).
WORKER_HEALTHCHECK_S = 60
STARTUP_FAILURE = 3  # uvicorn's exit status when the app's start-up failed


def serve(settings: Settings, host: str, port: int) -> None:
    """Block serving on host:port with `settings.workers` processes, JSON logs, no uvicorn access log."""
    options: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": settings.log_level,
        "log_config": None,
        "access_log": False,
    }
    try:
        sock = shared_socket(host, port)
    except OSError as exc:
        raise SystemExit(port_message(host, port, exc)) from None
    if settings.workers <= 1:
        from server.main import create_app

        with sock:
            server = uvicorn.Server(uvicorn.Config(create_app(settings), **options))
            server.run(sockets=[sock])
        if not server.started:
            raise SystemExit(STARTUP_FAILURE)
        return
    # Worker processes build their app from the environment, as uvicorn needs an import string.
    config = uvicorn.Config(
        "server.main:create_app",
        factory=True,
        workers=settings.workers,
        timeout_worker_healthcheck=WORKER_HEALTHCHECK_S,
        **options,
    )
    with sock, tempfile.TemporaryDirectory(prefix="stepgrade-run-") as run_dir:
        os.environ[RUN_DIR_ENV] = (
            run_dir  # inherited by the workers: where they mark themselves ready
        )
        Multiprocess(config, sockets=[sock]).run()


def port_message(host: str, port: int, exc: OSError) -> str:
    """Why `stepgrade serve` cannot listen, and what to change (STEPGRADE_PORT or --port)."""
    if exc.errno == errno.EADDRINUSE:
        return (
            f"stepgrade serve: port {port} on {host} is already in use; stop what holds it, "
            f"or choose another port: STEPGRADE_PORT={port + 1} stepgrade serve "
            f"(or --port {port + 1})"
        )
    return (
        f"stepgrade serve: cannot listen on {host}:{port}: {exc.strerror or exc}; check "
        "STEPGRADE_HOST and STEPGRADE_PORT (or --host and --port)"
    )


def shared_socket(host: str, port: int) -> socket.socket:
    """The workers' socket: bound (a port already served fails here, clearly), not yet listening.

    TCP_NODELAY is set here, inherited by accepted connections: without it a kept-alive response
    body waits ~40 ms for the client's delayed ACK (uvicorn's own socket has proto 0, so asyncio
    skips it).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock
