"""Final answers: whether a solution's answer equals the reference (DESIGN.md 4.7).

`extract_answer` (re-exported from `scoring.extract`) finds the answer in a solution.

Equivalence is decided by math-verify (gold first: it is asymmetric on purpose) in a worker process
with a hard deadline and a memory cap, so adversarial answers cannot hang or exhaust the caller.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import select
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from scoring.answer_readings import READINGS, Reading, read_pair, restate
from scoring.answer_rounding import computed_inexactly, within_rounding
from scoring.extract import answer_candidates, extract_answer, find_answer

__all__ = [
    "AnswerCheck",
    "AnswerVerifier",
    "Equivalence",
    "VerifierPool",
    "VerifyConfig",
    "check_answer",
    "clean_answer",
    "compare_answers",
    "extract_answer",
    "is_equivalent",
]

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[1])



_TIMEOUT = object()
# What a comparison came to: equal, different, undecided (None) or out of time.
Outcome = bool | None | Literal["timeout"]


class Comparer(Protocol):
    """What compares answers with math-verify: a worker, a pool of them, or a test's stand-in."""

    def outcome(self, golds: Sequence[str], pred: str, timeout: float | None = None) -> Outcome:
        ...


@dataclass(frozen=True)
class VerifyConfig:
    """Budget per comparison, memory cap of the worker, decimals math-verify rounds to.

    `timeout` is CPU seconds in the worker (`scoring._verify_worker`), so a loaded machine does
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

    The worker is a plain subprocess (`python -m scoring._verify_worker`) speaking JSON lines, so
    it never re-imports the caller's main module as multiprocessing's spawn would.
    """

    def __init__(self, config: VerifyConfig = VerifyConfig()) -> None:
        self.config = config
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""

    def _start(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "scoring._verify_worker", str(self.config.memory_mb)],
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
        with self._lock:
            self._kill()

    def compare(self, golds: Sequence[str], pred: str, timeout: float | None = None) -> bool | None:
        """True/False from math-verify, None when undecidable, past the deadline or out of memory."""
        result = self.outcome(golds, pred, timeout)
        return None if result == "timeout" else result

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
        return result if isinstance(result, bool) else None


class VerifierPool:
    """Up to `size` workers; a comparison takes an idle one, starting another only when all are busy.

    One worker behind a lock serialised every answer check of a busy service (64 concurrent
    grades queued ~10 ms each behind it); a pool keeps them parallel, and a lone CLI run still
    starts a single process.
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
        result = self.outcome(golds, pred, timeout)
        return None if result == "timeout" else result

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


_CONTROL = {"\x07": "\\a", "\x08": "\\b", "\x0b": "\\v", "\x0c": "\\f"}
_TEXT_SYMBOL = re.compile(r"\\(?:text|mathrm|textrm)\{\s*([^{}A-Za-z]{1,8}|[A-Za-z])\s*\}")
_SPACED_WRAPPER = re.compile(r"\\(text|mathrm|textrm|textbf|mbox)\s+\{")
_SINGLE_BACKSLASH = re.compile(r"(?<!\\)\\(?!\\)")
_DOUBLED_COMMAND = re.compile(r"(?<!\\)\\\\[A-Za-z]")
_SYNONYMS = ((r"\bigcup", r"\cup"), (r"\bigcap", r"\cap"), (r"\dfrac", r"\frac"), (r"\tfrac", r"\frac"))


def clean_answer(answer: str) -> str:
    """Repair what commonly breaks answers before any comparison.

    JSON written without escaping turns `\\frac` into a form feed plus "rac" (likewise `\\b`,
    `\\v`, `\\a`); an answer escaped twice has every backslash doubled (`\\\\sqrt{5}`);
    `\\text {cm}` is `\\text{cm}`; `\\text{3}` wraps a bare symbol; `\\bigcup` and `\\dfrac` are
    display variants.
    """
    text = "".join(_CONTROL.get(ch, ch) for ch in answer)
    if _DOUBLED_COMMAND.search(text) and not _SINGLE_BACKSLASH.search(text):
        text = text.replace("\\\\", "\\")
    text = _SPACED_WRAPPER.sub(r"\\\1{", text)
    text = _TEXT_SYMBOL.sub(lambda m: m.group(1), text)
    for variant, canonical in _SYNONYMS:
        text = text.replace(variant, canonical)
    return text


def _normalise(answer: str) -> str:
    return re.sub(r"\s+|\$|\\[,;! ]|\\left|\\right", "", clean_answer(answer)).rstrip(".")


@dataclass(frozen=True)
class Equivalence:
    """A verdict and the reading that decided it (`same_text`, a name from
    `scoring.answer_readings.READINGS`, `rounded_computation`, `math_verify`, or `empty`)."""

    verdict: bool | None
    reading: str
    restated: bool = False  # decided on the values `restate` read from the answers
    timed_out: bool = False  # math-verify ran out of time: undecided, never a guess


def _for_math_verify(text: str) -> str:
    """A bare answer on one line: math-verify wraps it in `$...$`, where a newline ends the math
    (a matrix written over several lines would lose all but a fragment)."""
    if any(mark in text.replace("\\$", "") for mark in ("$", "\\(", "\\[", "\\boxed")):
        return text
    return " ".join(text.split())


def compare_answers(
    gold: str | Sequence[str],
    pred: str | None,
    *,
    timeout: float = 2.0,
    verifier: Comparer | None = None,
    readings: Sequence[tuple[str, Reading]] = READINGS,
    inexact: bool = False,
) -> Equivalence:
    """Whether `pred` equals the gold answer (any of them, for a list), and what decided it.

    The readings of `scoring.answer_readings` are tried first (exact, in this process), on the
    answers as written and then as values (`restate`: the answer a text in words states, without
    units and names); a pair none of them decides goes to math-verify in its worker. `readings`
    is there to measure what each one adds. With `inexact` (the computation went through a
    rounded quantity, `scoring.answer_rounding`), numbers that agree to a relative 1e-4 are
    equal (`rounded_computation`).
    """
    items = [gold] if isinstance(gold, (str, int, float)) else list(gold)
    golds = [clean_answer(str(g)) for g in items if g is not None and str(g).strip()]
    if pred is None or not str(pred).strip() or not golds:
        return Equivalence(None, "empty")
    pred = clean_answer(str(pred))
    refused: Equivalence | None = None
    undecided: dict[str, list[tuple[str, bool]]] = {}  # pred for math-verify -> (gold, restated)
    for g in golds:
        if _normalise(g) == _normalise(pred):
            return Equivalence(True, "same_text")
        found, values = read_pair(g, pred, readings), (g, pred)
        if found is None and (values := restate(g, pred)) != (g, pred):
            found = read_pair(*values, readings)
        restated = values != (g, pred)
        if inexact and not (found and found[0]) and within_rounding(*values):
            return Equivalence(True, "rounded_computation", restated)
        if found is None:
            sent = (_for_math_verify(values[0]), restated)
            undecided.setdefault(_for_math_verify(values[1]), []).append(sent)
        elif found[0]:
            return Equivalence(True, found[1], restated)
        else:
            refused = refused or Equivalence(False, found[1], restated)
    verdict: Outcome = None
    for text, pending in undecided.items():
        verdict = (verifier or default_verifier()).outcome([g for g, _ in pending], text, timeout)
        if verdict is True:
            return Equivalence(True, "math_verify", any(r for _, r in pending))
        if verdict == "timeout":
            break  # each time-out costs a budget and a worker restart: the rest are not tried
    if refused is not None:
        return refused
    restated = any(r for p in undecided.values() for _, r in p)
    if verdict == "timeout":
        return Equivalence(None, "math_verify", restated, timed_out=True)
    return Equivalence(verdict, "math_verify", restated)


def is_equivalent(
    gold: str | Sequence[str],
    pred: str | None,
    *,
    timeout: float = 2.0,
    verifier: Comparer | None = None,
) -> bool | None:
    """Whether `pred` equals the gold answer (any of them, for a list).

    Returns None when either side is empty or cannot be parsed, or math-verify runs past
    `timeout` CPU seconds (the worker is then restarted on the next call).
    """
    return compare_answers(gold, pred, timeout=timeout, verifier=verifier).verdict


@dataclass(frozen=True)
class AnswerCheck:
    """The answer found, whether it equals the reference, whether the solution marked it, and
    the reading that decided (an `Equivalence.reading`; its precision is measured by
    `eval_sets.answer_agreement`), "" when nothing was compared.

    `timed_out`: a comparison ran out of time, so `correct` is None (undecided), never a guess.
    """

    extracted: str | None
    correct: bool | None
    anchored: bool
    reading: str = ""
    timed_out: bool = False


def check_answer(
    text: str,
    gold: str | Sequence[str],
    *,
    timeout: float = 2.0,
    candidate_timeout: float = 0.5,
    verifier: Comparer | None = None,
    problem: str = "",
    rounding: bool = True,
) -> AnswerCheck:
    """Check a solution's final answer against the reference.

    A marked answer (boxed, "final answer", ...) is decisive. An unmarked one is looked for among
    the closing lines' expressions: the solution is right if any of them equals the reference.
    When the problem or the solution shows a rounded quantity, numbers are compared within
    rounding (`scoring.answer_rounding`); `rounding=False` leaves that reading out (to measure it).
    """
    found = find_answer(text)
    golds = [gold] if isinstance(gold, str) else list(gold)
    if not golds:
        return AnswerCheck(found.text, None, found.anchored)
    inexact = rounding and computed_inexactly(problem, text)
    if found.anchored:
        result = compare_answers(golds, found.text, timeout=timeout, verifier=verifier,
                                 inexact=inexact)
        return AnswerCheck(found.text, result.verdict, True, result.reading, result.timed_out)
    for candidate in answer_candidates(text):
        result = compare_answers(golds, candidate, timeout=candidate_timeout, verifier=verifier,
                                 inexact=inexact)
        if result.verdict:
            return AnswerCheck(candidate, True, False, result.reading)
        if result.timed_out:
            # It might have matched: undecided, not wrong. The rest are not tried: one answer
            # that exhausts math-verify is seldom alone, and each costs a deadline and a restart.
            return AnswerCheck(found.text, None, False, timed_out=True)
    return AnswerCheck(found.text, False if found.text else None, False)
