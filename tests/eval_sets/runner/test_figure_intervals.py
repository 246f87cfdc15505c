"""The figures' intervals over problems, and their re-weighting to the held-out mix."""

from __future__ import annotations

import pytest

from tests.eval_sets.conftest import rows_of


def test_figures_re_weighted_to_the_held_out_mix() -> None:
    """Raking to the held-out mix moves the figures toward the groups it weighs up: here the
    failed solutions, whose intervals miss."""
    from eval_sets.runner.figure_intervals import GradeRow, figure_intervals

    def row(
        problem: str,
        group: str,
        human: int,
        interval: tuple[int, int],
        failed: bool,
        flagged: bool = False,
    ) -> GradeRow:
        return GradeRow("fit", problem, group, human, human, interval, flagged, failed)

    grades = [
        row("p1", "answer right", 10, (9, 10), False),
        row("p2", "answer right", 10, (9, 10), False),
        row("p3", "answer wrong", 3, (5, 8), True),
        row("p4", "proof", 7, (5, 9), False),
        row("p5", "proof", 2, (5, 9), True, flagged=True),
    ]
    rows = rows_of(figure_intervals(grades, [], draws=50))
    assert rows["fit: coverage"]["value"] == pytest.approx(3 / 5)
    mixed = rows["fit: coverage, held-out mix"]["value"]
    assert mixed < 3 / 5  # 46% of the weight on the two failed solutions, both missed
    # shares meet the mix: 46% failed (both uncovered) -> coverage 54%
    assert mixed == pytest.approx(0.54, abs=1e-6)
    assert rows["fit: unflagged, held-out mix"]["value"] < 1.0
    # without a pass mark for every grade there is no re-weighted figure
    unknown = [*grades[:4], row("p5", "proof", 2, (5, 9), None)]  # type: ignore[arg-type]
    assert "fit: coverage, held-out mix" not in rows_of(figure_intervals(unknown, [], draws=50))
