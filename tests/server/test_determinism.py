"""The same request gives the same report (timings aside): alone, in two concurrent runs in one
process, and in two concurrent `stepgrade grade` processes with different hash seeds (set
iteration order differs between them). An answer check out of time is undecided, never wrong."""

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
from eval_sets.fakes.embedder import hashed_bag_of_words
from eval_sets.registry import load_dataset
from scoring.schema import GradeRequest

TIMINGS = ("elapsed_ms", "node_ms")


def _requests() -> list[GradeRequest]:
    """Every bundled item of every set, read by its loader, graded offline."""
    return [
        item.request.model_copy(update={"mode": "offline"})
        for path in sorted(BUNDLED_DIR.glob("*.jsonl"))
        for item in load_dataset(path.stem, path)
    ]


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
        reports.append(
            [_without_timings(json.loads(line)) for line in out.read_text().splitlines()]
        )
    assert len(reports[0]) == len(reports[1]) >= 20
    for i, (a, b) in enumerate(zip(*reports, strict=True)):
        assert a == b, f"item {i} differs between the two processes"


SLOW = (r"[1,+\infty)", r"[2^{\frac{1}{2^{1000}}}, \infty)")  # math-verify runs past any budget


def test_an_answer_check_out_of_time_is_undecided_with_a_warning():
    grader = Grader(Context(embedder=hashed_bag_of_words, answer_timeout=0.3))
    for solution in (
        f"So $x \\in {SLOW[1]}$, i.e. the answer is $\\boxed{{{SLOW[1]}}}$.",
        f"So the set is ${SLOW[1]}$.",
    ):  # marked, and found among the candidates
        request = GradeRequest(
            problem="Solve $x \\geq 1$.",
            solution=solution,
            reference_answer=SLOW[0],
            mode="offline",
        )
        report = grader.grade(request)
        assert report.answer.correct is None and report.answer.symbolic is None
        warning = [w for w in report.meta.warnings if "timed out" in w]
        assert warning and "0.3 s of CPU" in warning[0] and "left undecided" in warning[0]
        assert all("final_answer" not in s.error_categories for s in report.steps), (
            "an undecided answer labels nothing"
        )
