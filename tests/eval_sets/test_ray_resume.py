"""Kill -9 a `bench grade --engine ray` run mid-way, rerun it: no item lost, none duplicated."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
N_ITEMS = 120


def _command(data: Path, out: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "server.cli",
        "bench",
        "grade",
        "--dataset",
        "mr_math_invalid",
        "--path",
        str(data),
        "--out",
        str(out),
        "--no-progress",
        "--engine",
        "ray",
        "--actors",
        "2",
        "--answer-timeout",
        "30",
    ]


def _session_processes(sid: int) -> list[int]:
    """Every process in session `sid`: the run, its Ray head and Ray's workers."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[3]) == sid:
            found.append(int(stat.parent.name))
    return found


def _kill_session(sid: int) -> None:
    for pid in _session_processes(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_killed_ray_run_resumes_without_loss_or_duplicates(tmp_path, repeated_mr_math) -> None:
    data, out = repeated_mr_math(N_ITEMS), tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    results = out / "results.jsonl"
    proc = subprocess.Popen(
        _command(data, out),
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if results.exists() and results.read_text().count("\n") >= 5:
                break
            time.sleep(0.05)
        os.killpg(proc.pid, signal.SIGKILL)  # the driver and the Ray it started
    finally:
        proc.wait(timeout=30)
        _kill_session(proc.pid)  # Ray workers in their own process groups
    done_before = results.read_text().count("\n")
    assert 5 <= done_before < N_ITEMS, "the run should have been killed mid-way"

    with results.open("a", encoding="utf-8") as fh:  # as if killed in the middle of a write
        fh.write('{"id": "mr-invalid-119", "gold": {"sub')

    again = subprocess.Popen(
        _command(data, out),
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        _, err = again.communicate(timeout=600)
    finally:
        _kill_session(again.pid)
    assert again.returncode == 0, err
    assert f"{N_ITEMS} items, {done_before} resumed" in err
    ids = [json.loads(line)["id"] for line in results.read_text().splitlines()]
    assert len(ids) == len(set(ids)) == N_ITEMS
    assert set(ids) == {f"mr-invalid-{i}" for i in range(N_ITEMS)}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tables"]["overview"]["rows"]["items"]["value"] == N_ITEMS
