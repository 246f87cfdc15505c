"""Final answers: where a solution states its answer, and whether it equals the reference (DESIGN.md 4.7).

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

_PACKAGE_ROOT = str(Path(__file__).resolve().parents[1])
_TIMEOUT = object()

_BOXED = re.compile(r"\\(?:boxed|fbox)\s*\{")
_CN_FINAL = re.compile(r"最终答案\s*[:：]?\s*【")
_LAST_BRACKET = re.compile(r"【([^【】]*)】\s*[。.]?\s*$")
_FINAL = re.compile(r"final answer\s*(?:is)?\s*[:：]?\s*(?:the final answer is\s*)?", re.IGNORECASE)
_HASH_ANSWER = re.compile(r"^#\s*Answer\s*$", re.IGNORECASE | re.MULTILINE)
_ANSWER_IS = re.compile(r"\bthe (?:final )?answer is\s*[:：]?\s*", re.IGNORECASE)
_GSM8K = re.compile(r"####\s*(.+)")
_CN_ANSWER = re.compile(r"答案(?:是|为)\s*[:：]?\s*")
_EQ_RHS = re.compile(r"=\s*([^=]+)$")
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:/\d+)?")
_LEADING_MATH = re.compile(r"\s*(?:\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\])")
_SENTENCE_END = re.compile(r"\.\s|。|；|;")
_MATH_INLINE = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)")


def _balanced(text: str, start: int) -> str | None:
    """The content of the brace group opening at `text[start - 1] == '{'`, braces counted."""
    depth = 1
    for i in range(start, len(text)):
        if text[i] == "{" and text[i - 1] != "\\":
            depth += 1
        elif text[i] == "}" and text[i - 1] != "\\":
            depth -= 1
            if depth == 0:
                return text[start:i]
    return None


def _clean(answer: str) -> str | None:
    text = answer.strip()
    text = re.sub(r"^(?:\$+|\\\(|\\\[)|(?:\$+|\\\)|\\\])$", "", text).strip()
    text = text.rstrip("。.，,;；").strip()
    text = re.sub(r"^(?:\$+|\\\(|\\\[)|(?:\$+|\\\)|\\\])$", "", text).strip()
    return text or None


def _first_line(text: str) -> str:
    """The answer after an anchor: the leading math span, else the clause up to a sentence end."""
    line = next((ln for ln in text.splitlines() if ln.strip()), "")
    if m := _LEADING_MATH.match(line):
        return next(g for g in m.groups() if g is not None)
    return _SENTENCE_END.split(line, 1)[0]


def _boxed(text: str) -> str | None:
    found = None
    for m in _BOXED.finditer(text):
        content = _balanced(text, m.end())
        if content is not None:
            found = content
    return found


def extract_answer(text: str) -> str | None:
    """The final answer a solution states, or None when it states none.

    In order: the last `\\boxed{}`/`\\fbox{}` (braces counted), StepMathBench's `最终答案：【...】`,
    "Final Answer:", PRM800K's "# Answer", GSM8K's "####", "the answer is", "答案是/为"; then the
    right-hand side of the last line's equation, then the last number.
    """
    if not text or not text.strip():
        return None
    if (boxed := _boxed(text)) is not None:
        return _clean(boxed)
    cn = list(_CN_FINAL.finditer(text))
    if cn:
        rest = text[cn[-1].end():]
        return _clean(rest.split("】", 1)[0])
    if m := _LAST_BRACKET.search(text):
        return _clean(m.group(1))
    for pattern in (_FINAL, _HASH_ANSWER, _ANSWER_IS, _CN_ANSWER):
        hits = list(pattern.finditer(text))
        if hits:
            answer = _clean(_first_line(text[hits[-1].end():]))
            if answer:
                return answer
    if hits := _GSM8K.findall(text):
        return _clean(hits[-1])
    return _fallback(text)


def _fallback(text: str) -> str | None:
    last = next((ln for ln in reversed(text.splitlines()) if ln.strip()), "")
    spans = [a or b for a, b in _MATH_INLINE.findall(last)]
    if spans and (m := _EQ_RHS.search(spans[-1])):
        return _clean(m.group(1))
    numbers = _NUMBER.findall(text)
    return _clean(numbers[-1]) if numbers else None


@dataclass(frozen=True)
class VerifyConfig:
    """Deadline per comparison, memory cap of the worker, decimals math-verify rounds to."""

    timeout: float = 2.0
    memory_mb: int = 1024
    precision: int = 6
    start_timeout: float = 60.0


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
        deadline = self.config.timeout if timeout is None else timeout
        with self._lock:
            if self._proc is None or self._proc.poll() is not None:
                self._kill()
                self._start()
            assert self._proc is not None and self._proc.stdin is not None
            try:
                message = json.dumps([list(golds), pred, self.config.precision]) + "\n"
                self._proc.stdin.write(message.encode("utf-8"))
                self._proc.stdin.flush()
            except (BrokenPipeError, OSError):
                self._kill()
                return None
            result = self._read_line(deadline)
            if result is _TIMEOUT:
                self._kill()
                return None
        return result if isinstance(result, bool) else None


_DEFAULT: AnswerVerifier | None = None
_DEFAULT_LOCK = threading.Lock()


def default_verifier() -> AnswerVerifier:
    """The process-wide verifier (one worker), closed at exit."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = AnswerVerifier()
            atexit.register(_DEFAULT.close)
        return _DEFAULT


def _normalise(answer: str) -> str:
    return re.sub(r"\s+|\$|\\[,;! ]|\\left|\\right", "", answer).rstrip(".")


def is_equivalent(
    gold: str | Sequence[str],
    pred: str | None,
    *,
    timeout: float = 2.0,
    verifier: AnswerVerifier | None = None,
) -> bool | None:
    """Whether `pred` equals the gold answer (any of them, for a list).

    Returns None when either side is empty or cannot be parsed, or math-verify runs past
    `timeout` seconds (the worker is then killed and restarted on the next call).
    """
    items = [gold] if isinstance(gold, (str, int, float)) else list(gold)
    golds = [str(g) for g in items if g is not None and str(g).strip()]
    pred = None if pred is None else str(pred)
    if pred is None or not pred.strip() or not golds:
        return None
    if any(_normalise(g) == _normalise(pred) for g in golds):
        return True
    return (verifier or default_verifier()).compare(golds, pred, timeout)
