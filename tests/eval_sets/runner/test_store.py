"""results.jsonl: records round-trip, the last per id is kept, and a `stepgrade bench grade`
killed mid-run and restarted loses no item and duplicates none."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from eval_sets.bundled import bundled_path
from eval_sets.items import Gold, RowError
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


def _result(uid: str, error: str | None = None) -> ItemResult:
    item = load_dataset("mr_math_invalid", bundled_path("mr_math_invalid"), limit=1)[0]
    return ItemResult(
        id=uid, gold=item.gold, request=item.request, report=None, error=error, elapsed_ms=12.3456
    )


def test_a_record_round_trips_through_its_line() -> None:
    result = _result("a", error="timeout after 1 s")
    line = result.to_line()
    assert line.endswith("\n") and line.count("\n") == 1
    back = ItemResult.from_json(json.loads(line))
    assert back == ItemResult(
        id="a",
        gold=result.gold,
        request=result.request,
        report=None,
        error="timeout after 1 s",
        elapsed_ms=12.346,
    )


def test_an_unreadable_row_is_a_failed_item_with_its_reason() -> None:
    result = ItemResult.unreadable(RowError(key="d.jsonl:2", reason="d.jsonl:2: not valid JSON"))
    assert (result.id, result.gold, result.request, result.report) == (
        "d.jsonl:2",
        Gold(),
        None,
        None,
    )
    assert result.error == "d.jsonl:2: not valid JSON" and result.finished_at > 0


def test_open_keeps_the_last_record_per_id_and_appends_whole_lines(tmp_path) -> None:
    store = ResultStore.open(tmp_path / "out")
    assert store.path.exists() and store.done == {}
    store.append(_result("a"))
    store.append(_result("b"))
    store.append(_result("a"))  # regraded: the later record wins
    again = ResultStore.open(tmp_path / "out")
    assert list(again.done) == ["a", "b"] and again.dropped == 1
    assert len(again.path.read_text().splitlines()) == 2  # rewritten without the duplicate


def test_failed_items_are_kept_when_not_retried(tmp_path) -> None:
    store = ResultStore.open(tmp_path)
    store.append(_result("a", error="boom"))
    kept = ResultStore.open(tmp_path, retry_errors=False)
    assert kept.done["a"].error == "boom" and kept.dropped == 0
