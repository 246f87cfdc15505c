"""The same request gives the same report (timings aside): alone, in two concurrent runs in one
process, and in two concurrent `stepgrade grade` processes with different hash seeds (set
iteration order differs between them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from agent.context import Context
from agent.grader import Grader
from eval_sets.bundled import BUNDLED_DIR
from eval_sets.registry import load_dataset
from scoring.embed import hashed_bag_of_words
from scoring.schema import GradeRequest

TIMINGS = ("elapsed_ms", "node_ms")


def _requests() -> list[GradeRequest]:
    """Every bundled item of every set, read by its loader, graded offline."""
    return [item.request.model_copy(update={"mode": "offline"})
            for path in sorted(BUNDLED_DIR.glob("*.jsonl"))
            for item in load_dataset(path.stem, path)]


def _without_timings(report: dict[str, Any]) -> dict[str, Any]:
    meta = {k: v for k, v in report["meta"].items() if k not in TIMINGS}
    return {**report, "meta": meta}


def test_alone_and_in_two_concurrent_runs():
    requests = _requests()
    assert len(requests) >= 20
    grader = Grader(Context(embedder=hashed_bag_of_words))

    def run(_: int) -> list[dict[str, Any]]:
        return [_without_timings(grader.grade(r).model_dump(mode="json")) for r in requests]

    alone = run(0)
    with ThreadPoolExecutor(2) as pool:
        first, second = pool.map(run, range(2))
    for i, report in enumerate(alone):
        assert first[i] == report, f"item {i}: a concurrent run differs from the lone one"
        assert second[i] == report, f"item {i}: the two concurrent runs differ"


@pytest.mark.model
@pytest.mark.timeout(600)
def test_two_processes_with_different_hash_seeds(tmp_path):
    source = tmp_path / "requests.jsonl"
    source.write_text("".join(r.model_dump_json() + "\n" for r in _requests()), encoding="utf-8")
    runs = []
    for seed in ("1", "2"):
        out = tmp_path / f"reports.{seed}.jsonl"
        env = {**os.environ, "PYTHONHASHSEED": seed, "HF_HUB_OFFLINE": "1"}
        command = [sys.executable, "-m", "server.cli", "grade", str(source), "-o", str(out)]
        runs.append((subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True), out))
    reports = []
    for process, out in runs:
        _, err = process.communicate(timeout=540)
        assert process.returncode == 0, err[-2000:]
        reports.append([_without_timings(json.loads(line)) for line in out.read_text().splitlines()])
    assert len(reports[0]) == len(reports[1]) >= 20
    for i, (a, b) in enumerate(zip(*reports, strict=True)):
        assert a == b, f"item {i} differs between the two processes"
