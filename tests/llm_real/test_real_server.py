"""LLM mode against a real server (llama.cpp's `llama-server`, Gemma 3 270M, one thread), through
the CLI and the service, default and fused. It asserts: every operation got
a model answer through a structured method (never degraded for transport, format or deadline; a
small base model's answers may be rejected on content, or cut off at the token cap, and the report
says so); every grade
finishes within 60 s; no request is still running on the server after a grade returns.

The grade's LLM time is 50 s, so that a grade that used all of it still ends within the 60 s
(the service's request deadline is that plus its 8 s for an offline fallback).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from eval_sets.processes import free_port, stop
from example_requests import example_names, load_example

from .conftest import ROWS, RealServer

GRADE_SECONDS = 60.0
# Every request has answered when the grade returns: the slack is for `/slots` to say so.
IDLE_SECONDS = 1.0
# Streaming on its default ("auto"): llama-server says who it is, and is answered streamed,
# the only way a cancelled request stops there.
LLM_ENV = {
    "STEPGRADE_LLM_MODEL": "gemma-3-270m",
    "STEPGRADE_LLM_BUDGET": "50",
    "STEPGRADE_LLM_TIMEOUT": "50",
    "STEPGRADE_LLM_REASON_TOKENS": "8",
    "STEPGRADE_LOG_LEVEL": "warning",
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
}
CASES = [(name, fused) for name in example_names() for fused in (False, True)]


def _label(name: str, fused: bool) -> str:
    return f"{name}-{'fused' if fused else 'default'}"


IDS = [_label(name, fused) for name, fused in CASES]


def _request(name: str, fused: bool) -> dict[str, Any]:
    return {**load_example(name).model_dump(mode="json"), "mode": "llm", "fused": fused}


def _ran_to_the_cap(op: dict[str, Any]) -> bool:
    """A 270M base model at temperature 0 sometimes repeats itself until `max_tokens`, on the
    answer and on its one repair: llama-server reuses a cached prompt prefix, so the same request
    is not always decoded alike. That is the model's answer, cut off, and reported as `format`
    (what a user would see); a format failure of any other kind still fails here."""
    return (
        op["degraded"] == "format"
        and "cut off" in op["detail"]
        and op["completion_tokens"] >= op["requests"] * op["max_tokens"]
    )


def _check(report: dict[str, Any], seconds: float, server: RealServer, label: str) -> None:
    meta = report["meta"]
    operations = meta["llm_operations"]
    ROWS.append(
        f"{label:<34} {seconds:5.1f} s  requests {meta['llm_calls']}  "
        + ", ".join(
            f"{op['operation']} {op['method']} x{op['requests']} "
            f"{op['completion_tokens']}/{op['max_tokens']} tok {op['ms'] / 1000:.1f}s"
            + (f" [{op['degraded']}: {op['detail'][:60]}]" if op["degraded"] else "")
            for op in operations
        )
    )
    idle = server.idle_within(IDLE_SECONDS)
    assert meta["mode"] == "llm" and operations
    for op in operations:  # a model answer through a structured method, maybe rejected on content
        assert op["degraded"] in (None, "content") or _ran_to_the_cap(op), op
        assert op["method"] == "json_schema" and op["requests"], op
    if any(op["degraded"] for op in operations):  # and the report says so
        assert meta["degraded"] and meta["warnings"], meta
    assert seconds < GRADE_SECONDS and meta["elapsed_ms"] < GRADE_SECONDS * 1000
    assert idle, "a request was still running on the server after the grade returned"


@pytest.mark.parametrize(("name", "fused"), CASES, ids=IDS)
def test_cli_grades_in_llm_mode(llama_server: RealServer, name: str, fused: bool, tmp_path) -> None:
    path = tmp_path / "request.json"
    path.write_text(json.dumps(_request(name, fused)), encoding="utf-8")
    env = {**os.environ, **LLM_ENV, "STEPGRADE_LLM_BASE_URL": llama_server.base_url}
    t0 = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "grade", str(path), "--mode", "llm"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
    )
    wall = time.monotonic() - t0
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)  # the grade's time; the process's start-up on top is shown
    _check(
        report,
        report["meta"]["elapsed_ms"] / 1000,
        llama_server,
        f"cli {_label(name, fused)} ({wall:.0f} s run)",
    )


@contextmanager
def _serving(server: RealServer, cwd: Path, **settings: str) -> Iterator[str]:
    """`stepgrade serve` on the real server, with `LLM_ENV` and `settings`; yields its URL."""
    port = free_port()
    env = {**os.environ, **LLM_ENV, "STEPGRADE_LLM_BASE_URL": server.base_url, **settings}
    process = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "serve", "--port", str(port)],
        env=env,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                if httpx.get(f"{base}/readyz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, "service did not start"
            time.sleep(0.5)
        yield base
    finally:
        stop(process, grace=30)


@pytest.fixture(scope="module")
def service(llama_server: RealServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with _serving(llama_server, tmp_path_factory.mktemp("service")) as base:
        yield base


@pytest.mark.parametrize(("name", "fused"), CASES, ids=IDS)
def test_service_grades_in_llm_mode(
    llama_server: RealServer, service: str, name: str, fused: bool
) -> None:
    t0 = time.monotonic()
    r = httpx.post(f"{service}/grade", json=_request(name, fused), timeout=300)
    seconds = time.monotonic() - t0
    assert r.status_code == 200, r.text[:500]
    _check(r.json(), seconds, llama_server, f"service {_label(name, fused)}")


# A grade given too little LLM time: the deadline cuts a request that is running on the
# server. A streamed generation stops at its next token once its client is gone; one still
# reading its prompt (about 230 tokens/s on the one thread) stops after it. reference_solution's
# step judgement starts 3-6 s into the grade and generates for 8-12 s (548 tokens), so 8 s
# cuts it on a quiet machine, an earlier request on a loaded one (12 s once let a quiet
# machine's grade finish uncut). A deadline can also fall between two requests, with none in
# flight: the grade is then repeated with another budget, until one cuts a request.
CUT_BUDGETS = ("8", "6", "10")
CUT_IDLE_SECONDS = 10.0


def test_a_request_the_deadline_cut_stops_on_the_server(
    llama_server: RealServer, tmp_path: Path
) -> None:
    for budget in CUT_BUDGETS:
        with _serving(llama_server, tmp_path, STEPGRADE_LLM_BUDGET=budget) as base:
            r = httpx.post(f"{base}/grade", json=_request("reference_solution", False), timeout=300)
            returned = time.monotonic()
            idle = llama_server.idle_within(CUT_IDLE_SECONDS)
            waited = time.monotonic() - returned
        assert r.status_code == 200, r.text[:500]
        operations = r.json()["meta"]["llm_operations"]
        cut = [
            op["operation"] for op in operations if op["degraded"] == "deadline" and op["requests"]
        ]
        ROWS.append(
            f"service, {budget} s of LLM time: cut {cut}; the server idle "
            f"{waited:.1f} s after the grade returned"
        )
        assert idle, f"a request was still running on the server {waited:.1f} s after the grade"
        if cut:
            return
    raise AssertionError(f"no budget of {CUT_BUDGETS} cut a request in flight: {operations}")
