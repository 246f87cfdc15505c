"""The math-verify pool: a slow comparison must not hold up the others (no hidden serialisation)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from scoring.answer.compare import is_equivalent
from scoring.answer.worker import AnswerVerifier, VerifierPool, VerifyConfig

SLOW = (r"[1,+\infty)", r"[2^{\frac{1}{2^{1000}}}, \infty)")  # runs until the deadline


def _slow_in_background(pool: VerifierPool) -> threading.Thread:
    started = threading.Event()

    def run() -> None:
        started.set()
        pool.compare([SLOW[0]], SLOW[1], timeout=4.0)

    thread = threading.Thread(target=run)
    thread.start()
    started.wait()
    while pool._idle:  # until the slow comparison holds the warm worker
        time.sleep(0.001)
    return thread


def test_a_free_worker_answers_while_another_is_busy():
    pool = VerifierPool(2, VerifyConfig())
    try:
        assert pool.compare(["1/2"], "0.5") is True  # one warm worker
        slow = _slow_in_background(pool)
        assert pool.compare(["2"], "2.0") is True
        assert slow.is_alive(), "the quick check waited for the slow one"
        slow.join()
        assert len(pool._all) == 2
    finally:
        pool.close()


def test_a_pool_of_one_queues_its_callers():
    pool = VerifierPool(1, VerifyConfig())
    try:
        assert pool.compare(["1/2"], "0.5") is True
        slow = _slow_in_background(pool)
        assert pool.compare(["3"], "4") is False
        assert not slow.is_alive()
        assert len(pool._all) == 1
    finally:
        pool.close()


def test_warm_starts_every_worker():
    pool = VerifierPool(2, VerifyConfig())
    try:
        assert pool.warm() is True
        assert len(pool._all) == 2 and len(pool._idle) == 2
        assert all(v._proc is not None and v._proc.poll() is None for v in pool._all)
        assert pool.warm() is True and len(pool._all) == 2  # nothing more to start
    finally:
        pool.close()


def test_workers_outlive_the_thread_that_started_them_but_not_the_process():
    import os
    import signal
    import subprocess
    import sys

    script = (
        "import threading\n"
        "from scoring.answer.worker import VerifierPool\n"
        "pool = VerifierPool(1)\n"
        "t = threading.Thread(target=pool.warm); t.start(); t.join()\n"
        "import time; time.sleep(1.0)\n"
        "print(pool._all[0]._proc.pid, pool._all[0]._proc.poll(), flush=True)\n"
        "time.sleep(60)\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        pid, status = parent.stdout.readline().split()
        assert status == "None", "the worker died with the thread that started it"
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and os.path.exists(f"/proc/{pid}"):
            with open(f"/proc/{pid}/stat") as stat:
                if stat.read().rsplit(")", 1)[1].split()[0] == "Z":
                    break  # exited, waiting to be reaped by its new parent
            time.sleep(0.1)
        else:
            assert not os.path.exists(f"/proc/{pid}"), "the worker outlived its parent"
    finally:
        parent.kill()


def test_adversarial_pair_is_cut_at_the_deadline():
    start = time.monotonic()
    result = is_equivalent(r"[1,+\infty)", r"[2^{\frac{1}{2^{1000}}}, \infty)", timeout=1.0)
    assert time.monotonic() - start < 10
    assert result in (None, True, False)
    assert is_equivalent("2", "2.0") is True, "the worker restarts after a kill"


def test_worker_runs_under_the_memory_cap():
    verifier = AnswerVerifier(VerifyConfig(memory_mb=700))
    try:
        assert verifier.compare(["1/2"], "0.5") is True
        limits = Path(f"/proc/{verifier._proc.pid}/limits").read_text()
        line = next(ln for ln in limits.splitlines() if ln.startswith("Max address space"))
        assert str(700 * 1024 * 1024) in line
    finally:
        verifier.close()


def test_a_killed_worker_is_replaced():
    verifier = AnswerVerifier(VerifyConfig(timeout=5.0))
    try:
        assert verifier.compare(["2"], "2.0") is True
        verifier._proc.kill()
        verifier._proc.wait()
        assert verifier.compare(["3"], "4") is False
    finally:
        verifier.close()


def test_concurrent_callers_share_the_worker():
    from concurrent.futures import ThreadPoolExecutor

    pairs = [("2", "2"), ("3", "4"), (r"\frac{1}{4}", "0.25"), ("1", "2")] * 3
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda p: is_equivalent(*p), pairs))
    assert results == [True, False, True, False] * 3
