"""The conformal fit of the score interval, on synthetic sets whose quantiles are worked by hand."""

from __future__ import annotations

import math

import pytest

from eval_sets.calibrate.conformal import (
    MIN_CELL,
    Graded,
    balanced_unflagged,
    conformal_bounds,
    fit_cell,
    fit_model,
    fit_spread,
    fold_of,
)
from eval_sets.calibrate.uncertainty_report import plain_rule
from eval_sets.metrics.risk import corr_mae, coverage_of, reliability
from scoring.score.features import GradeFeatures
from scoring.score.uncertainty import assess


def test_conformal_bounds_take_the_finite_sample_ranks() -> None:
    # n = 19: the floor(20 * 0.1) = 2nd and ceil(20 * 0.9) = 18th smallest
    assert conformal_bounds([float(v) for v in range(19, 0, -1)]) == (2.0, 18.0)
    # n = 9 is the least with finite bounds at 80%: the extremes
    assert conformal_bounds([5.0, 1.0, 9.0, 2.0, 3.0, 4.0, 6.0, 7.0, 8.0]) == (1.0, 9.0)
    assert conformal_bounds([1.0] * 8) is None
    # a 50% interval of 1..9: ranks floor(2.5) = 2 and ceil(7.5) = 8
    assert conformal_bounds([float(v) for v in range(1, 10)], 0.5) == (2.0, 8.0)


def test_fit_cell_uses_out_of_fold_residuals() -> None:
    # humans 0..19 at one score; fold = parity. Evens are predicted by the odd mean 10,
    # odds by the even mean 9: residuals -10, -8, -8, -6, -6, ..., 8, 8, 10. No level reaches
    # 80% (the interval stops at 10), so the highest with finite bounds is kept: 0.9, ranks
    # floor(21 * 0.05) = 1 and ceil(21 * 0.95) = 20, -10 and 10. The centre is the mean, 9.5.
    humans = list(range(20))
    cell = fit_cell([5] * 20, humans, [h % 2 for h in humans], weighted=False)
    assert cell is not None
    assert (cell.q_lo, cell.q_hi, cell.nominal) == (-10.0, 10.0, 0.9)
    assert (cell.intercept, cell.slope, cell.spread0, cell.spread1) == (9.5, 0.0, 1.0, 0.0)


def test_fit_cell_takes_the_lowest_level_whose_integer_intervals_cover_80_percent() -> None:
    # 12 humans at the score 5, four at 4, four at 6, each fold alike: out-of-fold centre 5,
    # residuals -1 x4, 0 x12, +1 x4. At 80% the ranks 2 and 19 give [4, 6], covering all; a
    # level below 0.8 gives the same integer interval, so the chosen level is lower.
    humans = [5, 5, 5, 4, 6] * 4
    cell = fit_cell([5] * 20, humans, [i % 2 for i in range(20)], weighted=False)
    assert cell is not None and cell.nominal < 0.8
    assert (cell.q_lo, cell.q_hi) == (-1.0, 1.0)


def test_fit_cell_refuses_a_small_cell_and_keeps_the_slope_in_0_1() -> None:
    assert fit_cell([5] * (MIN_CELL - 1), [5] * (MIN_CELL - 1), [0, 1] * 10) is None
    scores = [s % 10 for s in range(40)]
    falling = fit_cell(scores, [10 - s for s in scores], [s % 5 for s in range(40)])
    steep = fit_cell(scores, [2 * s for s in scores], [s % 5 for s in range(40)])
    assert falling is not None and falling.slope == 0.0
    assert steep is not None and steep.slope == 1.0


def test_coverage_and_width() -> None:
    assert coverage_of([(0, 2), (3, 3), (5, 9)], [1, 4, 9]) == pytest.approx((2 / 3, 2.0))
    assert all(math.isnan(v) for v in coverage_of([], []))


def test_corr_mae_and_reliability() -> None:
    corr, mae = corr_mae([(1.0, 2.0), (2.0, 4.0), (3.0, 6.0)])
    assert corr == pytest.approx(100.0) and mae == pytest.approx(2.0)
    ece, rows = reliability([(0.05, False), (0.05, True), (0.95, True), (0.95, True)])
    # bin 0.0-0.1: mean 0.05 against a rate of 0.5; bin 0.9-1.0: 0.95 against 1.0
    assert ece == pytest.approx(0.5 * 0.45 + 0.5 * 0.05)
    assert [(label, n) for label, n, _, _ in rows] == [("0.0-0.1", 2), ("0.9-1.0", 2)]


def graded(i: int, kind: str, score: int, human: int, steps: int = 4) -> Graded:
    verdict = {"right": "right", "wrong": "wrong"}.get(kind, "none")
    problem_type = kind if kind in ("proof", "open_ended") else "calculation"
    features = GradeFeatures(
        problem_type=problem_type,
        verdict=verdict,  # type: ignore[arg-type]
        has_reference=problem_type == "calculation",
        answer_read=True,
        mode="offline",
        step_logic_checked=False,
        degraded=False,
        steps=steps,
        score=score,
    )
    return Graded(f"u{i}", f"problem {i}", "fit", human, (), (), "en", features)


def synthetic() -> list[Graded]:
    items = [graded(i, "right", 10, 10 - (i % 10 == 0)) for i in range(40)]
    items += [graded(100 + i, "wrong", 4, i % 8, steps=3 + i % 6) for i in range(40)]
    items += [graded(200 + i, "proof", 9, 4 + i % 7) for i in range(10)]
    return items


def test_fit_model_fits_big_cells_borrows_for_small_ones_and_flags_offline_proofs() -> None:
    items = synthetic()
    model = fit_model(items, target_unflagged=0.4)
    assert {"right", "wrong", "all"} <= set(model.cells)
    assert "proof" not in model.cells and "unverified" not in model.cells  # 10 < MIN_CELL
    reviews = [assess(g.features, model) for g in items]
    assert all(r.needs_review for g, r in zip(items, reviews) if g.features.problem_type == "proof")
    assert sum(not r.needs_review for r in reviews) / len(items) >= 0.4
    covered = sum(
        lo <= g.human <= hi for g, (lo, hi) in zip(items, (r.score_interval for r in reviews))
    )
    assert covered / len(items) >= 0.8  # in-sample, the nominal level at least


def test_plain_rule_flags_proofs_then_the_longest_wrong_answers() -> None:
    items = [
        graded(0, "proof", 9, 9),
        graded(1, "wrong", 4, 3, steps=9),
        graded(2, "wrong", 4, 3, steps=2),
        graded(3, "right", 10, 10),
    ]
    assert plain_rule(items) == [True, True, False, False]


def test_pooled_levels_let_the_other_cells_offset_a_cell_that_over_covers() -> None:
    # Right answers sit at [10, 10] and cover 90% at any level; the wrong answers alone would
    # need their own 80%. Pooled, they go lower, but never below the floor out of fold.
    items = synthetic()
    wrong = [g for g in items if g.features.verdict == "wrong"]
    alone = fit_cell(
        [g.features.score for g in wrong],
        [g.human for g in wrong],
        [fold_of(g.problem) for g in wrong],
    )
    model = fit_model(items, target_unflagged=0.4, floor=0.6)
    assert alone is not None and model.cells["wrong"].nominal < alone.nominal
    oof = model.meta["out_of_fold_coverage"]
    assert oof["wrong"] >= 0.6 and oof["pooled"] >= 0.8
    stricter = fit_model(items, target_unflagged=0.4, floor=0.9)
    assert stricter.cells["wrong"].nominal >= model.cells["wrong"].nominal
    assert (
        stricter.meta["out_of_fold_coverage"]["wrong"] >= 0.9
        or stricter.cells["wrong"].nominal == 0.95
    )


def test_cell_fit_coverage_grows_with_the_level() -> None:
    humans = [i % 9 for i in range(30)]
    fitted = fit_spread([5] * 30, humans, [i % 3 for i in range(30)], weighted=False)
    assert fitted is not None
    shares = [sum(fitted.covered(level).values()) / 30 for level in (0.4, 0.6, 0.8, 0.9)]
    assert shares == sorted(shares) and shares[0] < shares[-1]
    assert fitted.lowest_level(0.5) <= fitted.lowest_level(0.8)


def test_the_width_flag_spends_its_share_alike_on_each_group() -> None:
    """Many right answers, which no width flags, must not license flagging most wrong answers:
    each group (right, wrong, the step-only grades) weighs a third of the share left unflagged."""
    items = [graded(i, "right", 10, 10) for i in range(120)]
    items += [graded(200 + i, "wrong", i % 9, (i * 5) % 9, steps=3 + i % 6) for i in range(40)]
    items += [graded(300 + i, "proof", 9, 4 + i % 7) for i in range(20)]
    model = fit_model(items, target_unflagged=0.55)
    assert balanced_unflagged(items, model) >= 0.55
    wrong = [assess(g.features, model).needs_review for g in items if g.features.verdict == "wrong"]
    assert 0 < sum(wrong) / len(wrong) <= 0.35
    plain_share = 1 - sum(assess(g.features, model).needs_review for g in items) / len(items)
    assert plain_share > 0.55  # as the fit half mixes them, more is left than the target


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
