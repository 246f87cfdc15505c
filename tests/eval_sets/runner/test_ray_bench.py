"""The engine benchmark's parts on the local engine: the steady rate from the items' own finish
times, one timed run, and the regrading that tells a varying grader from an engine difference.
(Ray itself is exercised in test_ray_engine.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eval_sets.bundled import bundled_path
from eval_sets.runner.ray_bench import Timing, load, run_once, steady_rate, unsteady_items
from eval_sets.runner.store import RESULTS


def stamps(folder: Path, times: list[float]) -> Path:
    folder.mkdir(exist_ok=True)
    lines = [json.dumps({"id": str(i), "timings": {"finished_at": t}}) for i, t in enumerate(times)]
    (folder / RESULTS).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_the_steady_rate_counts_from_the_first_item_finished_to_the_last(tmp_path: Path) -> None:
    assert steady_rate(stamps(tmp_path, [14.0, 10.0, 12.0])) == pytest.approx(2 / 4)
    assert steady_rate(stamps(tmp_path, [10.0])) is None
    assert steady_rate(stamps(tmp_path, [10.0, 10.0])) is None


def test_items_per_second_end_to_end() -> None:
    assert Timing(items=10, wall_s=4.0, steady_per_s=None).per_s == 2.5


def test_the_load_line_names_the_cpus() -> None:
    assert load().startswith("load average ") and load().endswith(" CPUs")


def test_a_local_run_and_its_regrading(tmp_path: Path) -> None:
    out = tmp_path / "local"
    (out / "stale").mkdir(parents=True)  # a fresh folder: what was there is removed
    timing = run_once("mr_math_invalid", bundled_path("mr_math_invalid"), out, "local", None, 10.0)
    assert timing.items == 4 and timing.wall_s > 0 and not (out / "stale").exists()
    ids = [json.loads(line)["id"] for line in (out / RESULTS).read_text().splitlines()]
    assert sorted(ids) == [f"mr-invalid-{i}" for i in range(1, 5)]
    # the local grader grades an item again as the run did: listed as the grader's, not the engine's
    path = bundled_path("mr_math_invalid")
    assert unsteady_items("mr_math_invalid", path, ["mr-invalid-2"], out, 10.0, times=2) == [
        "mr-invalid-2"
    ]
    assert unsteady_items("mr_math_invalid", path, [], out, 10.0) == []
