"""Durability: a service killed with SIGKILL under load has a stored row for every
grade it answered 200. Two workers, clients grading continuously, the whole process group killed
mid-load (no shutdown hook runs); then the store is read directly. `make test` runs it on SQLite
(WAL), `make test-db` on PostgreSQL."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time

import httpx
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from eval_sets.processes import free_port, start_service, wait_ready
from server.store.models import Grade

CLIENTS = 8
KILL_AFTER = 40


def _client(
    base: str, number: int, answered: list[str], lock: threading.Lock, stop: threading.Event
) -> None:
    """Grades distinct problems back to back; keeps the id of every 200 answer."""
    with httpx.Client(timeout=30) as client:
        i = 0
        while not stop.is_set():
            body = {
                "problem": f"Client {number}, problem {i}: compute 3 * 4 + 1.",
                "solution_steps": ["3 * 4 = 12", f"12 + 1 = {13 + i % 2}"],
                "reference_answer": "13",
                "mode": "offline",
            }
            i += 1
            try:
                r = client.post(f"{base}/grade", json=body)
            except httpx.HTTPError:
                continue  # the service is gone: nothing was answered
            if r.status_code == 200:
                with lock:
                    answered.append(r.json()["meta"]["grade_id"])


@pytest.mark.timeout(300)
def test_every_grade_answered_200_is_stored_after_a_sigkill(database_url):
    port = free_port()
    service = start_service(
        None,
        port,
        workers=2,
        new_session=True,
        stdout=subprocess.DEVNULL,
        env={"STEPGRADE_PRELOAD_EMBEDDING": "false", "STEPGRADE_DATABASE_URL": database_url},
    )
    answered: list[str] = []
    lock, stop = threading.Lock(), threading.Event()
    base = f"http://127.0.0.1:{port}"
    threads = [
        threading.Thread(target=_client, args=(base, n, answered, lock, stop))
        for n in range(CLIENTS)
    ]
    try:
        wait_ready(f"{base}/readyz", service)
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 120
        while len(answered) < KILL_AFTER and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(service.pid, signal.SIGKILL)  # under load: the clients are still sending
        service.wait(timeout=30)
    finally:
        stop.set()
        if service.poll() is None:
            os.killpg(service.pid, signal.SIGKILL)
        for thread in threads:
            thread.join(timeout=60)
    assert len(answered) >= KILL_AFTER, f"only {len(answered)} grades answered before the kill"
    engine = create_engine(database_url)
    try:
        with Session(engine) as session:
            stored = set(session.scalars(select(Grade.id).where(Grade.id.in_(answered))))
    finally:
        engine.dispose()
    lost = [grade_id for grade_id in answered if grade_id not in stored]
    assert not lost, f"{len(lost)} of {len(answered)} grades answered 200 have no stored row"
