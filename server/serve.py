"""Running the service under uvicorn: one process, or several, each with its own listening socket.

Several processes on one shared socket split connections unevenly: whichever process wakes first
accepts every connection waiting (asyncio accepts up to the backlog per wake-up), so a burst of
64 kept-alive client connections landed 3:1 on two workers and one worker's GIL bounded the
rate. With one SO_REUSEPORT socket per worker the kernel spreads connections over them.
"""

from __future__ import annotations

import socket
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess
from uvicorn.supervisors.multiprocess import Process

from server.settings import Settings


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
                            **options)
    sockets: list[socket.socket] = []
    try:
        port = _free_to_share(host, port)
        sockets = [_listening_socket(host, port) for _ in range(settings.workers)]
    except OSError as exc:
        for sock in sockets:
            sock.close()
        raise SystemExit(f"stepgrade serve: cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    _SocketPerWorker(config, sockets=sockets).run()


def _family(host: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in host else socket.AF_INET


def _free_to_share(host: str, port: int) -> int:
    """The port, checked free without SO_REUSEPORT: a second stepgrade started on a port already
    served must fail, not quietly take half of its connections. Port 0 becomes a free port."""
    with socket.socket(_family(host), socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
        return int(probe.getsockname()[1])


def _listening_socket(host: str, port: int) -> socket.socket:
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
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


class _SocketPerWorker(Multiprocess):
    """uvicorn's supervisor, starting worker i on socket i (a replacement worker gets them all)."""

    def init_processes(self) -> None:
        for sock in self.sockets:
            process = Process(self.config, [sock])
            process.start()
            self.processes.append(process)
