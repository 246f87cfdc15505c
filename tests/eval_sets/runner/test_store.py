"""Kill a `stepgrade bench grade` subprocess mid-run, restart it: no item lost, none duplicated."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset
from eval_sets.runner.store import ItemResult, ResultStore

REPO = Path(__file__).resolve().parents[3]
N_ITEMS = 60


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
    ]


def _ids(out: Path) -> list[str]:
    return [json.loads(line)["id"] for line in (out / "results.jsonl").read_text().splitlines()]


def test_killed_run_resumes_without_loss_or_duplicates(tmp_path, repeated_mr_math) -> None:
    data, out = repeated_mr_math(N_ITEMS), tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(
        _command(data, out),
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    results = out / "results.jsonl"
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if results.exists() and results.read_text().count("\n") >= 5:
                break
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGKILL)  # the runner and its answer-check worker
    finally:
        proc.wait(timeout=30)
    done_before = results.read_text().count("\n")
    assert 5 <= done_before < N_ITEMS, "the run should have been killed mid-way"

    with results.open("a", encoding="utf-8") as fh:  # as if killed in the middle of a write
        fh.write('{"id": "mr-invalid-59", "gold": {"sub')

    finished = subprocess.run(
        _command(data, out),
        check=False,
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert finished.returncode == 0, finished.stderr
    assert f"{done_before} resumed" in finished.stderr
    ids = _ids(out)
    assert len(ids) == len(set(ids)) == N_ITEMS
    assert set(ids) == {f"mr-invalid-{i}" for i in range(N_ITEMS)}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tables"]["overview"]["rows"]["items"]["value"] == N_ITEMS


def test_store_drops_partial_and_failed_lines(tmp_path) -> None:
    item = load_dataset("mr_math_invalid", bundled_path("mr_math_invalid"), limit=1)[0]
    failed = ItemResult(
        id=item.id, gold=item.gold, request=item.request, report=None, error="timeout after 1 s"
    )
    results = tmp_path / "results.jsonl"
    results.write_text(failed.to_line() + '{"id": "a"\n{"broken', encoding="utf-8")
    store = ResultStore.open(tmp_path)
    assert store.done == {} and store.dropped == 3  # failed item retried, bad line, partial tail
    assert results.read_text() == ""
