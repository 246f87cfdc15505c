"""The conformal fit of the score interval, on synthetic sets whose quantiles are worked by hand."""

from __future__ import annotations

from eval_sets.calibrate.conformal import (
    MIN_CELL,
    balanced_unflagged,
    conformal_bounds,
    fit_cell,
    fit_model,
    fit_spread,
    fold_of,
)
from scoring.score.uncertainty import assess
from tests.eval_sets.calibrate.conftest import graded, synthetic


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
