"""The benchmark's figures: which files a run's results give, each a PNG; nothing drawn from no
reports, and the divergence histogram only where a reference was aligned."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.grader import Grader
from eval_sets.items import Gold
from eval_sets.runner.figures import (
    divergence_histogram,
    draw_all,
    per_type_bars,
    predicted_vs_gold,
    quadrant_scatter,
)
from eval_sets.runner.store import ItemResult
from scoring.schema import GradeRequest

PLAIN = GradeRequest(
    problem="Compute 2 + 3, then double it.",
    solution_steps=["2 + 3 = 5.", "5 * 2 = 10."],
    reference_answer="10",
    problem_type="calculation",
)


def png(path: Path) -> bool:
    return path.read_bytes()[:4] == b"\x89PNG"


@pytest.fixture(scope="module")
def results() -> list[ItemResult]:
    report = Grader().grade(PLAIN)
    return [
        ItemResult(id="a", gold=Gold(score=10, subset="Calculation"), request=PLAIN, report=report),
        ItemResult(id="b", gold=Gold(score=4, subset="Proof"), request=PLAIN, report=report),
        ItemResult(id="c", gold=Gold(), request=PLAIN, report=None, error="timeout after 1 s"),
    ]


def test_a_run_without_reference_steps_gets_the_scatter_scores_and_bars(
    results, tmp_path: Path
) -> None:
    written = draw_all(results, tmp_path)
    names = {p.name for p in written}
    assert {"quadrants.png", "predicted_vs_gold.png", "per_type.png"} <= names
    assert "divergence.png" not in names and not any(n.startswith("heatmap_") for n in names)
    assert all(png(p) for p in written)


def test_no_reports_no_figures(tmp_path: Path) -> None:
    failed = [ItemResult(id="x", gold=Gold(), request=None, report=None, error="unreadable")]
    assert draw_all(failed, tmp_path) == [] and list(tmp_path.iterdir()) == []


def test_the_divergence_histogram_needs_an_aligned_report(results, tmp_path: Path) -> None:
    reports = [r.report for r in results if r.report is not None]
    assert divergence_histogram(reports, tmp_path / "d.png") is False
    assert not (tmp_path / "d.png").exists()


def test_each_figure_function_writes_its_png(results, tmp_path: Path) -> None:
    reports = [r.report for r in results if r.report is not None]
    quadrant_scatter(reports, tmp_path / "q.png")
    predicted_vs_gold([(10, 9), (10, 9), (3, 6)], tmp_path / "p.png")
    per_type_bars({"Calculation": (7.5, 8.0), "Proof": (4.0, None)}, tmp_path / "b.png", "y", "t")
    assert all(png(tmp_path / n) for n in ("q.png", "p.png", "b.png"))
