"""Running the service under uvicorn: one process, or several, each with its own listening socket.

Several processes on one shared socket split connections unevenly: whichever process wakes first
accepts every connection waiting (asyncio accepts up to the backlog per wake-up), so a burst of
64 kept-alive client connections landed 3:1 on two workers and one worker's GIL bounded the
rate. With one SO_REUSEPORT socket per worker the kernel spreads connections over them.

The kernel spreads them only over sockets that *listen*, so nothing may listen before it can
grade: the parent binds each worker's socket and hands it over without listening, and the worker
listens only after its warm-up (uvicorn creates its server after the lifespan start-up). Before
that, connections went to the socket of a worker still loading its models and waited there
unanswered (for ~15 s). The parent keeps no copy: a worker that dies takes its socket out of the
kernel's group with it, and its replacement gets a new one. `/readyz` is ready only when every
worker is (`server.worker_ready`).
"""

from __future__ import annotations

import os
import socket
import tempfile
from typing import Any

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors import Multiprocess
from uvicorn.supervisors.multiprocess import Process, logger

from server.settings import Settings
from server.worker_ready import RUN_DIR_ENV

# uvicorn kills a worker that does not answer its supervisor's ping within this time (default
# 5 s). A new worker answers only once it has re-imported `stepgrade`'s main module (spawn), and
# a busy one only when its pinging thread gets the GIL: on a loaded machine both took longer
# than 5 s, and uvicorn killed and restarted healthy workers in a loop (the service then never
# became ready; the intermittent failure of the two-worker test).
WORKER_HEALTHCHECK_S = 60


def serve(settings: Settings, host: str, port: int) -> None:
    """Block serving on host:port with `settings.workers` processes, JSON logs, no uvicorn access log."""
    options: dict[str, Any] = {"host": host, "port": port, "log_level": settings.log_level,
                               "log_config": None, "access_log": False}
    if settings.workers <= 1:
        from server.main import create_app

        uvicorn.run(create_app(settings), **options)
        return
    # Worker processes build their app from the environment, as uvicorn needs an import string.
    config = uvicorn.Config("server.main:create_app", factory=True, workers=settings.workers,
                            timeout_worker_healthcheck=WORKER_HEALTHCHECK_S, **options)
    try:
        port = _free_to_share(host, port)
        _bound_socket(host, port).close()  # fails now, clearly, if the address cannot be used
    except OSError as exc:
        raise SystemExit(f"stepgrade serve: cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    with tempfile.TemporaryDirectory(prefix="stepgrade-run-") as run_dir:
        os.environ[RUN_DIR_ENV] = run_dir  # inherited by the workers: where they mark themselves ready
        _SocketPerWorker(config, host, port).run()


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _free_to_share(host: str, port: int) -> int:
    """The port, checked free without SO_REUSEPORT: a second stepgrade started on a port already
    served must fail, not quietly take half of its connections. Port 0 becomes a free port."""
    with socket.socket(_family(host), socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
        return int(probe.getsockname()[1])


def _bound_socket(host: str, port: int) -> socket.socket:
    """A worker's socket: bound, shared with the others through SO_REUSEPORT, not yet listening."""
    sock = socket.socket(_family(host), socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    # Accepted sockets inherit TCP_NODELAY: without it a kept-alive response body waits ~40 ms
    # for the client's delayed ACK (uvicorn's own socket has proto 0, so asyncio skips it).
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


class _SocketPerWorker(Multiprocess):
    """uvicorn's supervisor, starting each worker (and each replacement) on a socket of its own."""

    def __init__(self, config: uvicorn.Config, host: str, port: int) -> None:
        super().__init__(config, sockets=[])
        self.host, self.port = host, port

    def _spawn(self) -> Process:
        sock = _bound_socket(self.host, self.port)
        try:
            process = Process(self.config, [sock])
            process.start()
        finally:
            sock.close()  # the worker holds its own copy
        return process

    def init_processes(self) -> None:
        self.processes = [self._spawn() for _ in range(self.processes_num)]

    def keep_subprocess_alive(self) -> None:
        """uvicorn's own, except that a replacement gets a new socket (`_spawn`)."""
        if self.should_exit.is_set():
            return
        for idx, process in enumerate(self.processes):
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                logger.error(f"Child process [{process.pid}] failed to start, stopping the parent process.")
                self.should_exit.set()
                return
            if self.should_exit.is_set():
                return
            logger.info(f"Child process [{process.pid}] died")
            self.processes[idx] = self._spawn()

    def restart_all(self) -> None:
        """SIGHUP: each worker replaced by a new one, started before the old one stops."""
        for idx, old in enumerate(self.processes):
            if self.should_exit.is_set():
                return
            new = self._spawn()
            if not new.wait_until_ready(self.config.timeout_worker_healthcheck, self.should_exit):
                new.kill()
                new.join()
                return
            old.terminate()
            old.join()
            self.processes[idx] = new
