"""/readyz with several workers: ready only when every live worker has finished its warm-up."""

from __future__ import annotations

import os
import subprocess
import sys

from server.core.worker_ready import RUN_DIR_ENV, mark_gone, mark_ready, ready_workers
from tests.server.conftest import service


def test_only_live_workers_count(tmp_path):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    mark_ready(tmp_path, int(dead.stdout))  # a worker that crashed after its warm-up
    mark_ready(tmp_path, os.getpid())
    (tmp_path / "ready-junk").touch()
    assert ready_workers(tmp_path) == 1
    mark_gone(tmp_path, os.getpid())
    assert ready_workers(tmp_path) == 0


def test_readyz_waits_for_every_worker(tmp_path, monkeypatch):
    monkeypatch.setenv(RUN_DIR_ENV, str(tmp_path))
    with service(workers=2) as client:
        assert (tmp_path / f"ready-{os.getpid()}").exists(), "the lifespan marks its worker ready"
        r = client.get("/readyz")
        assert r.status_code == 503 and r.json()["checks"]["workers"] == "starting"
        mark_ready(tmp_path, os.getppid())  # the other worker (any live process stands in)
        r = client.get("/readyz")
        assert r.status_code == 200 and r.json()["checks"]["workers"] == "ok"
    assert not (tmp_path / f"ready-{os.getpid()}").exists(), "gone at shutdown"


def test_one_worker_has_no_workers_check(monkeypatch):
    monkeypatch.delenv(RUN_DIR_ENV, raising=False)
    with service() as client:
        assert "workers" not in client.get("/readyz").json()["checks"]
