"""Running the service under uvicorn: one process, or several sharing one listening socket."""

from __future__ import annotations

import socket
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

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
    sock = config.bind_socket()
    # uvicorn's socket has proto 0, so asyncio skips TCP_NODELAY on accepted connections and a
    # kept-alive response body waits ~40 ms for the client's delayed ACK; accepted sockets
    # inherit the option from the listening one.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    Multiprocess(config, sockets=[sock]).run()
