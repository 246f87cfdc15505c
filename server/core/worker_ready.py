"""Which workers of a multi-process service have finished their warm-up (`/readyz`).

`stepgrade serve` with N workers gives them a shared run directory (`STEPGRADE_RUN_DIR`); each
worker writes `ready-<pid>` there after its warm-up and removes it at shutdown. Any worker's
`/readyz` then answers for the whole service: ready only when N live workers have said so, so a
load balancer never routes to a service half of which cannot grade yet.
"""

from __future__ import annotations

import os
from pathlib import Path

RUN_DIR_ENV = "STEPGRADE_RUN_DIR"


def run_dir() -> Path | None:
    """The shared run directory, when this process is one of several workers."""
    value = os.environ.get(RUN_DIR_ENV)
    return Path(value) if value else None


def mark_ready(directory: Path, pid: int | None = None) -> None:
    """Say this worker has warmed up and serves (a file named for its pid)."""
    (directory / f"ready-{pid or os.getpid()}").touch()


def mark_gone(directory: Path, pid: int | None = None) -> None:
    """Withdraw this worker's readiness mark when it stops."""
    (directory / f"ready-{pid or os.getpid()}").unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def ready_workers(directory: Path) -> int:
    """Live workers that finished their warm-up (a crashed worker's mark does not count)."""
    count = 0
    for mark in directory.glob("ready-*"):
        pid = mark.name.removeprefix("ready-")
        if pid.isdigit() and _alive(int(pid)):
            count += 1
    return count
