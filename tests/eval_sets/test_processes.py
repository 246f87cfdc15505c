"""Starting, waiting for and stopping the processes the benchmarks run: ports, signals, the
fake model, process trees, and the percentile they report."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys

import httpx
import pytest

from eval_sets.processes import (
    NotReadyError,
    fake_model,
    free_port,
    llm_grading_env,
    percentile,
    stepgrade_command,
    stop,
    tree,
    wait_ready,
)


def test_a_fake_model_that_cannot_start_stops_the_bench_with_its_name(tmp_path) -> None:
    missing = ["--data", str(tmp_path / "none.jsonl")]
    with (
        pytest.raises(SystemExit, match="^fallible_bench: the label server exited with 2"),
        fake_model(
            "eval_sets.fakes.label_server",
            missing,
            "the label server",
            "fallible_bench",
            seconds=30,
        ),
    ):
        pytest.fail("a server that cannot read its data never answers")


IGNORES_SIGTERM = (
    "import signal, sys, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "print('ready', flush=True)\n"
    "time.sleep(60)"
)
STARTS_A_CHILD = (
    "import subprocess, sys, time\n"
    "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
    "print(child.pid, flush=True)\n"
    "time.sleep(60)"
)


def test_a_free_port_can_be_bound() -> None:
    port = free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


def test_stop_terminates_and_kills_what_ignores_sigterm() -> None:
    polite = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    stop(polite, grace=10)
    assert polite.returncode == -signal.SIGTERM
    stubborn = subprocess.Popen(
        [
            sys.executable,
            "-c",
            IGNORES_SIGTERM,
        ],
        stdout=subprocess.PIPE,
    )
    assert stubborn.stdout is not None and stubborn.stdout.readline() == b"ready\n"
    stop(stubborn, grace=0.2)
    assert stubborn.returncode == -signal.SIGKILL
    stubborn.stdout.close()


def test_the_stepgrade_command_runs_the_cli() -> None:
    done = subprocess.run(
        [*stepgrade_command(), "--help"], capture_output=True, timeout=60, check=False
    )
    assert done.returncode == 0 and b"usage" in done.stdout


def test_the_grading_env_points_at_the_model_without_a_cassette(monkeypatch) -> None:
    monkeypatch.setenv("STEPGRADE_LLM_REPLAY", "/tmp/cassette")
    monkeypatch.setenv("STEPGRADE_LLM_RECORD", "/tmp/cassette")
    monkeypatch.setenv("STEPGRADE_X", "kept")
    monkeypatch.setenv("STEPGRADE_Y", "dropped")
    env = llm_grading_env("http://127.0.0.1:9/v1", "m", drop=("STEPGRADE_Y",))
    assert env["STEPGRADE_LLM_BASE_URL"] == "http://127.0.0.1:9/v1"
    assert env["STEPGRADE_LLM_MODEL"] == "m" and env["STEPGRADE_X"] == "kept"
    assert not {"STEPGRADE_LLM_REPLAY", "STEPGRADE_LLM_RECORD", "STEPGRADE_Y"} & set(env)


def test_wait_ready_names_a_process_that_exited() -> None:
    done = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    done.wait(timeout=30)
    with pytest.raises(NotReadyError, match="the fake exited with 3 during start-up"):
        wait_ready(f"http://127.0.0.1:{free_port()}/", done, seconds=5, name="the fake")


def test_wait_ready_gives_up_after_its_seconds() -> None:
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        with pytest.raises(NotReadyError, match="the fake did not answer in 0.5 s"):
            wait_ready(f"http://127.0.0.1:{free_port()}/", idle, seconds=0.5, name="the fake")
    finally:
        stop(idle, grace=5)


def test_a_fake_model_answers_at_its_base_url() -> None:
    with fake_model("eval_sets.fakes.openai_server", [], "the fake", "test") as base:
        assert base.startswith("http://127.0.0.1:") and base.endswith("/v1")
        assert httpx.get(f"{base}/models", timeout=10).status_code == 200


def test_tree_lists_a_process_and_its_children() -> None:
    parent = subprocess.Popen(
        [
            sys.executable,
            "-c",
            STARTS_A_CHILD,
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        assert tree(parent.pid) == [parent.pid, child]
    finally:
        for pid in reversed(tree(parent.pid)):
            os.kill(pid, signal.SIGKILL)
        parent.wait(timeout=10)
        parent.stdout.close()


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([], 0.5, 0.0),
        ([3.0], 0.95, 3.0),
        ([5, 1, 4, 2, 3], 0.5, 3),
        ([5, 1, 4, 2, 3], 0.95, 5),
        ([1, 2], 0.0, 1),
    ],
)
def test_percentile_is_the_nearest_rank(values, q, expected) -> None:
    assert percentile(values, q) == expected
