"""The interval fit's report: the plain baseline rule and the figures' intervals."""

from __future__ import annotations

import pytest

from eval_sets.calibrate.conformal import (
    fit_model,
)
from eval_sets.calibrate.uncertainty_report import plain_rule
from eval_sets.metrics.risk import reliability
from scoring.score.uncertainty import assess
from tests.eval_sets.calibrate.conftest import graded, synthetic


def test_plain_rule_flags_proofs_then_the_longest_wrong_answers() -> None:
    items = [
        graded(0, "proof", 9, 9),
        graded(1, "wrong", 4, 3, steps=9),
        graded(2, "wrong", 4, 3, steps=2),
        graded(3, "right", 10, 10),
    ]
    assert plain_rule(items) == [True, True, False, False]


def test_the_fit_report_says_how_sure_its_figures_are() -> None:
    """The interval fit's report ends with the figures' intervals over their problems, the same
    table the benchmark runner prints, read from the same grades and reviews."""
    from dataclasses import replace

    from eval_sets.calibrate.uncertainty_report import report_tables

    items = synthetic()
    items = [replace(g, p_wrong=(0.1, 0.6), wrong=(False, i % 3 == 0)) for i, g in enumerate(items)]
    model = fit_model(items, target_unflagged=0.4)
    tables = {t.key: t for t in report_tables(items, model, fit_model(items, weighted=False))}
    sure = {str(r[0]): r for r in tables["figure_intervals"].rows}
    reviews = [assess(g.features, model) for g in items]
    covered = sum(
        lo <= g.human <= hi for g, (lo, hi) in zip(items, (r.score_interval for r in reviews))
    )
    value, low, high, problems = sure["fit: coverage"][1:5]
    assert value == pytest.approx(covered / len(items)) and problems == len(items)
    assert low <= value <= high
    ece = sure["fit: step ECE en"]
    assert ece[1] == pytest.approx(
        reliability([p for g in items for p in zip(g.p_wrong, g.wrong)])[0]
    )
    assert ece[5] is not None and ece[5] <= ece[7]  # what a calibrated P(wrong) reads
    assert "check: coverage" not in sure  # no check-half grades here
