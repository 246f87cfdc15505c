"""The child processes a benchmark or a test starts on this machine: a free loopback port for
each, and a stop that always ends them (asked first, killed after `grace` seconds)."""

from __future__ import annotations

import socket
import subprocess


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
