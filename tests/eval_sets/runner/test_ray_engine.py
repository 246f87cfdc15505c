"""The Ray engine on a local Ray (2 CPUs, no cluster): the local engine's results, item by item."""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path

import pytest
import ray

from eval_sets.bundled import BUNDLED_DIR, bundled_path
from eval_sets.fakes.openai_server import FakeOpenAI
from eval_sets.registry import load_dataset
from eval_sets.runner.bench import Recipe, grade_items
from eval_sets.runner.compare import differences, read_results
from eval_sets.runner.ray_engine import RayOptions
from eval_sets.runner.run import RunConfig
from eval_sets.runner.store import ResultStore
from server.cli import main

# Answer checks get 30 s: a 2 s check can time out on a loaded machine and change a verdict.
ANSWER_TIMEOUT = "30"


@pytest.fixture(scope="module")
def local_ray():
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.WARNING)
    yield
    ray.shutdown()


def test_every_bundled_set_grades_as_on_the_local_engine(tmp_path, local_ray) -> None:
    items = [
        i
        for kind in sorted(p.stem for p in BUNDLED_DIR.glob("*.jsonl"))
        for i in load_dataset(kind, bundled_path(kind))
    ]
    config = RunConfig(progress=False)
    for engine in ("local", "ray"):
        out = tmp_path / engine
        stats = grade_items(
            items,
            [],
            ResultStore.open(out),
            config,
            Recipe("offline", out, float(ANSWER_TIMEOUT)),
            engine,  # type: ignore[arg-type]
            RayOptions(actors=2),
        )
        errors = [r["error"] for r in read_results(out).values() if r["error"]]
        assert (stats.total, stats.graded, stats.failed) == (len(items), len(items), 0), errors
    assert differences(tmp_path / "local", tmp_path / "ray") == []
    assert len(read_results(tmp_path / "ray")) == len(items) > 20


def _tables(out: Path) -> dict:
    tables = json.loads((out / "summary.json").read_text(encoding="utf-8"))["tables"]
    for timing in ("mean item time (ms)", "wall time (s)"):
        tables["overview"]["rows"].pop(timing)
    return tables


def test_cli_ray_run_has_the_local_contract(tmp_path, local_ray, capsys, broken_stepmath) -> None:
    """Broken rows are failed items, the summary, tables and figures match, a rerun resumes."""
    data = broken_stepmath
    base = [
        "bench",
        "grade",
        "--dataset",
        "stepmath",
        "--path",
        str(data),
        "--answer-timeout",
        ANSWER_TIMEOUT,
    ]
    # exit 1 on either engine: the broken rows failed, the others were graded
    assert main([*base, "--out", str(tmp_path / "local"), "--no-progress"]) == 1
    capsys.readouterr()
    ray_out = tmp_path / "ray"
    assert main([*base, "--out", str(ray_out), "--engine", "ray", "--actors", "2"]) == 1
    err = capsys.readouterr().err
    assert "grading: 100%" in err and "(ray engine)" in err
    assert differences(tmp_path / "local", ray_out) == []
    assert _tables(tmp_path / "local") == _tables(ray_out)
    assert "failures" in _tables(ray_out)
    for name in ("quadrants.png", "predicted_vs_gold.png", "summary.md", "summary.tex"):
        assert (ray_out / name).stat().st_size > 0
    assert main([*base, "--out", str(ray_out), "--engine", "ray", "--no-progress"]) == 1
    graded = len([r for r in read_results(ray_out).values() if r["report"]])
    assert (
        f"5 items, {graded} resumed, 0 graded now, {5 - graded} failed" in capsys.readouterr().err
    )


class SlowEndpoint:
    """`answer` each request after `delay` s (`slow` for the rectangle problem), counting the
    requests in flight."""

    def __init__(self, answer, delay: float, slow: float | None = None) -> None:  # type: ignore[no-untyped-def]
        self.answer, self.delay, self.slow = answer, delay, slow
        self.lock = threading.Lock()
        self.now = self.peak = self.served = 0

    def __call__(self, operation: str, prompt: str) -> dict | None:
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        time.sleep(self.slow if self.slow and "rectangle" in prompt else self.delay)
        with self.lock:
            self.now -= 1
            self.served += 1
        return self.answer(operation, prompt)


def _llm_run(
    tmp_path: Path, monkeypatch, endpoint: SlowEndpoint, *extra: str, exit_code: int = 0
) -> dict:
    with FakeOpenAI(endpoint) as server:
        monkeypatch.setenv("STEPGRADE_LLM_BASE_URL", server.base_url)
        monkeypatch.setenv("STEPGRADE_LLM_MODEL", "fake-model")
        monkeypatch.setenv("STEPGRADE_LLM_TIMEOUT", "60")
        code = main(
            [
                "bench",
                "grade",
                "--dataset",
                "mr_math_invalid",
                "--path",
                str(bundled_path("mr_math_invalid")),
                "--out",
                str(tmp_path),
                "--mode",
                "llm",
                "--engine",
                "ray",
                "--no-progress",
                *extra,
            ]
        )
    assert code == exit_code
    return {
        r["id"]: r for r in map(json.loads, (tmp_path / "results.jsonl").read_text().splitlines())
    }


def test_llm_requests_are_capped_across_all_actors(
    tmp_path, local_ray, monkeypatch, mr_math_oracle
) -> None:
    endpoint = SlowEndpoint(mr_math_oracle, delay=0.5)
    rows = _llm_run(
        tmp_path,
        monkeypatch,
        endpoint,
        "--actors",
        "2",
        "--concurrency",
        "2",
        "--llm-concurrency",
        "1",
    )
    assert all(
        r["report"]["meta"]["mode"] == "llm" and not r["report"]["meta"]["degraded"]
        for r in rows.values()
    )
    assert endpoint.served == sum(r["report"]["meta"]["llm_calls"] for r in rows.values()) >= 4
    assert _most_in_flight(rows.values()) >= 2  # items were graded at the same time...
    assert endpoint.peak == 1  # ...but their model calls went one at a time


def _most_in_flight(rows) -> int:  # type: ignore[no-untyped-def]
    """The most items whose grading intervals overlap (from their own timings)."""
    spans = [
        (
            r["timings"]["finished_at"] - r["timings"]["elapsed_ms"] / 1000,
            r["timings"]["finished_at"],
        )
        for r in rows
    ]
    return max(sum(a <= start < b for a, b in spans) for start, _ in spans)


def test_an_item_past_its_deadline_is_recorded_and_the_others_graded(
    tmp_path, local_ray, monkeypatch, mr_math_oracle
) -> None:
    endpoint = SlowEndpoint(mr_math_oracle, delay=0.0, slow=60.0)
    rows = _llm_run(tmp_path, monkeypatch, endpoint, "--actors", "1", "--timeout", "8", exit_code=1)
    assert rows["mr-invalid-3"]["error"] == "timeout after 8 s"  # the rectangle problem
    assert all(rows[i]["report"]["meta"]["mode"] == "llm" for i in rows if i != "mr-invalid-3")


def test_generate_on_ray_asks_the_model_once_per_item_and_grades_as_locally(
    tmp_path, local_ray, monkeypatch
) -> None:
    solutions = {
        "Solve for $x$": "Subtract $2x$: $3x - 3 = 9$, so $3x = 12$ and $x = \\boxed{4}$.",
        "right triangle": "The hypotenuse is $\\sqrt{6^2 + 8^2} = \\boxed{12}$.",
    }

    def solve(operation: str, prompt: str) -> dict:
        return {"solution": next(v for k, v in solutions.items() if k in prompt)}

    with FakeOpenAI(solve) as server:
        monkeypatch.delenv("STEPGRADE_LLM_BASE_URL", raising=False)
        argv = [
            "bench",
            "generate",
            "--model",
            "tiny",
            "--base-url",
            server.base_url,
            "--dataset",
            "math",
            "--path",
            str(bundled_path("math")),
            "--subsets",
            "algebra",
            "geometry",
            "--no-progress",
        ]
        assert main([*argv, "--out", str(tmp_path / "local")]) == 0
        assert (
            main(
                [
                    *argv,
                    "--out",
                    str(tmp_path / "ray"),
                    "--engine",
                    "ray",
                    "--actors",
                    "2",
                    "--llm-concurrency",
                    "1",
                ]
            )
            == 0
        )
    assert len(server.requests) == 4  # two items, once per engine (each has its own cache)
    assert differences(tmp_path / "local", tmp_path / "ray") == []
    rows = read_results(tmp_path / "ray")
    assert rows["math-demo/algebra/1.json"]["report"]["answer"]["correct"] is True
    assert "Subtract $2x$" in rows["math-demo/algebra/1.json"]["request"]["solution"]
