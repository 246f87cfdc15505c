"""The math-verify worker processes, started, fed and restarted from the caller (docs/architecture.md 4.7).

Everything else in `scoring/` is a pure function. Equivalence that the readings of
`scoring.answer.readings` leave undecided goes to math-verify, and math-verify runs in worker
processes (`scoring.answer.worker.process`) with a hard deadline and a memory cap, so adversarial answers
cannot hang or exhaust the caller. This module starts, feeds, restarts and closes those processes;
`scoring.answer.compare` takes any `Comparer`, so tests can pass a stand-in.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol, get_args

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[3])

_TIMEOUT = object()
# What a comparison came to: equal, different, undecided (None), out of time, or equal by one of
# the worker's own readings where math-verify found no equality (`scoring.answer.worker.process
# .AFTER_MATH_VERIFY`: the reading's name).
WorkerReading = Literal["antiderivative", "positive_values", "solution_set"]
WORKER_READINGS: tuple[WorkerReading, ...] = get_args(WorkerReading)
Outcome = bool | None | Literal["timeout"] | WorkerReading
_DECIDED = (True, False, None, *WORKER_READINGS)


def verdict_of(outcome: Outcome) -> bool | None:
    """An outcome as equal / different / undecided (a time-out is undecided)."""
    if outcome == "timeout":
        return None
    return True if outcome in WORKER_READINGS else outcome  # type: ignore[return-value]


class Comparer(Protocol):
    """What compares answers with math-verify: a worker, a pool of them, or a test's stand-in."""

    def outcome(self, golds: Sequence[str], pred: str, timeout: float | None = None) -> Outcome:
        """Whether `pred` equals any of `golds`; "timeout" when it ran out of time."""
        ...


@dataclass(frozen=True)
class VerifyConfig:
    """Budget per comparison, memory cap of the worker, decimals math-verify rounds to.

    `timeout` is CPU seconds in the worker (`scoring.answer.worker.process`), so a loaded machine does
    not cut a comparison short that a quiet one finishes; the wall-clock deadline behind it,
    `wall_factor * timeout + wall_slack`, only catches work no signal can interrupt.
    """

    timeout: float = 2.0
    memory_mb: int = 1024
    precision: int = 6
    start_timeout: float = 60.0
    wall_factor: float = 10.0
    wall_slack: float = 5.0


class AnswerVerifier:
    """One math-verify worker process per verifier, started lazily and restarted after a kill.

    The worker is a plain subprocess (`python -m scoring.answer.worker`) speaking JSON lines, so
    it never re-imports the caller's main module as multiprocessing's spawn would.
    """

    def __init__(self, config: VerifyConfig = VerifyConfig()) -> None:
        self.config = config
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def _start(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "scoring.answer.worker", str(self.config.memory_mb)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=_PACKAGE_ROOT,
        )
        self._buffer = b""
        if self._read_line(self.config.start_timeout) != "ready":
            self._kill()
            raise RuntimeError("the math-verify worker did not start")

    def _read_line(self, timeout: float) -> object:
        """The next reply's `result`, or `_TIMEOUT` when none arrives within `timeout` seconds."""
        assert self._proc is not None and self._proc.stdout is not None
        fd = self._proc.stdout.fileno()
        end = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = end - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return _TIMEOUT
            chunk = os.read(fd, 65536)
            if not chunk:
                return _TIMEOUT
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)["result"]

    def _kill(self) -> None:
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait(timeout=5)
            for pipe in (self._proc.stdin, self._proc.stdout):
                if pipe is not None:
                    pipe.close()
        self._proc = None

    def close(self) -> None:
        """Stop the worker process (a later comparison starts a new one)."""
        with self._lock:
            self._kill()

    def compare(self, golds: Sequence[str], pred: str, timeout: float | None = None) -> bool | None:
        """True/False from math-verify, None when undecidable, past the deadline or out of memory."""
        return verdict_of(self.outcome(golds, pred, timeout))

    def outcome(self, golds: Sequence[str], pred: str, timeout: float | None = None) -> Outcome:
        """As `compare`, but "timeout" when the comparison ran out of time (not undecidable)."""
        budget = self.config.timeout if timeout is None else timeout
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._kill()
                self._start()
            assert self._proc is not None and self._proc.stdin is not None
            try:
                message = json.dumps([list(golds), pred, self.config.precision, budget]) + "\n"
                self._proc.stdin.write(message.encode("utf-8"))
                self._proc.stdin.flush()
            except (BrokenPipeError, OSError):
                self._kill()
                return None
            result = self._read_line(budget * self.config.wall_factor + self.config.wall_slack)
            if result is _TIMEOUT or result == "timeout":
                self._kill()  # a worker out of CPU budget has exited on its own
                return "timeout"
        return result if result in _DECIDED else None


class VerifierPool:
    """Up to `size` workers; a comparison takes an idle one, starting another only when all are busy.

    One worker behind a lock serialises every answer check of a busy service; a pool keeps them
    parallel, and a lone CLI run still starts a single process.
    """

    def __init__(self, size: int, config: VerifyConfig = VerifyConfig()) -> None:
        self.size = max(1, size)
        self.config = config
        self._idle: list[AnswerVerifier] = []
        self._all: list[AnswerVerifier] = []
        self._free = threading.Condition()

    def _take(self) -> AnswerVerifier:
        with self._free:
            while not self._idle and len(self._all) >= self.size:
                self._free.wait()
            if self._idle:
                return self._idle.pop()  # the most recently used: its process is warm
            verifier = AnswerVerifier(self.config)
            self._all.append(verifier)
            return verifier

    def _give_back(self, verifier: AnswerVerifier) -> None:
        with self._free:
            self._idle.append(verifier)
            self._free.notify()

    def compare(self, golds: Sequence[str], pred: str, timeout: float | None = None) -> bool | None:
        """`AnswerVerifier.compare` on whichever worker is free."""
        return verdict_of(self.outcome(golds, pred, timeout))

    def outcome(self, golds: Sequence[str], pred: str, timeout: float | None = None) -> Outcome:
        """`AnswerVerifier.outcome` on whichever worker is free."""
        verifier = self._take()
        try:
            return verifier.outcome(golds, pred, timeout)
        finally:
            self._give_back(verifier)

    def warm(self) -> bool:
        """Start every worker now (a service's start-up) instead of under its first burst."""
        with self._free:
            fresh = [AnswerVerifier(self.config) for _ in range(self.size - len(self._all))]
            self._all += fresh
        results: list[bool | None] = [None] * len(fresh)

        def check(i: int) -> None:
            results[i] = fresh[i].compare(["1/2"], "0.5", self.config.start_timeout)

        threads = [threading.Thread(target=check, args=(i,)) for i in range(len(fresh))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for verifier in fresh:
            self._give_back(verifier)
        return all(r is True for r in results)

    def close(self) -> None:
        """Stop every worker process of the pool."""
        with self._free:
            workers = list(self._all)
        for verifier in workers:
            verifier.close()


_DEFAULT: VerifierPool | None = None
_DEFAULT_LOCK = threading.Lock()


def default_verifier() -> VerifierPool:
    """The process-wide pool (one worker per core, started as needed), closed at exit."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = VerifierPool(os.cpu_count() or 1)
            atexit.register(_DEFAULT.close)
        return _DEFAULT
