import itertools

import pytest

from scoring.score.hcrs import (
    DEFAULT_HAZARD,
    HcrsConfig,
    cumulative_hazard,
    fit_hazard,
    format_penalty,
    hazard_penalty,
    hcrs_score,
    holistic_score,
    is_lucky_guess,
)

CFG = HcrsConfig()
H_MAX = sum(DEFAULT_HAZARD)


def test_clean_solution_keeps_its_base():
    s = hcrs_score([1, 1, 1, 1], None)
    assert (s.score, s.base, s.format_penalty, s.hazard_penalty) == (10.0, 10.0, 0.0, 0.0)


def test_error_at_step_one_costs_omega():
    assert hazard_penalty(1, CFG) == pytest.approx(5.0)
    s = hcrs_score([0, 1, 1, 1], 1)
    assert s.score == pytest.approx(7.5 - 5.0)


def test_later_errors_cost_less():
    penalties = [hazard_penalty(t, CFG) for t in range(1, 14)]
    assert all(a >= b for a, b in itertools.pairwise(penalties))
    # t* = 4: H(3) = .108 + .139 + .124
    assert penalties[3] == pytest.approx(5.0 * (1 - (0.108 + 0.139 + 0.124) / H_MAX))
    assert penalties[-1] == pytest.approx(0.0)


def test_format_penalty_shorter_than_skeleton_costs_more():
    # N = 3, L = 6: kappa = 1.5, 4 * 1.5 * 3/6 = 3.0
    assert format_penalty(3, 6, CFG) == pytest.approx(3.0)
    # N = 9, L = 6: kappa = 1, 4 * 3/9
    assert format_penalty(9, 6, CFG) == pytest.approx(4 / 3)
    assert format_penalty(1, 10, CFG) == pytest.approx(4.0)  # capped at alpha
    assert format_penalty(5, None, CFG) == 0.0


def test_score_is_clipped_at_zero():
    s = hcrs_score([0, 0], 1, skeleton_len=8)
    assert s.score == 0.0


def test_holistic_and_lucky_guess():
    assert holistic_score(8.0, True) == pytest.approx(0.7 * 8 + 3.0)
    assert holistic_score(8.0, False) == pytest.approx(5.6)
    assert is_lucky_guess(2.5, True) and not is_lucky_guess(2.5, False)
    assert not is_lucky_guess(3.5, True)


def test_constants_are_configurable():
    cfg = HcrsConfig(omega=2.0, c_haz=1.0, hazard=(0.5, 0.5))
    assert hazard_penalty(1, cfg) == 1.0
    assert cumulative_hazard(5, cfg.hazard) == 1.0


def test_fit_hazard_by_hand():
    # four solutions: error at 1; error at 2; clean with 3 steps; error at 3
    data = [(3, 1), (3, 2), (3, None), (4, 3)]
    # k=1: 1 of 4; k=2: 1 of 3; k=3: 1 of 2 (at risk: clean and the one failing at 3)
    assert fit_hazard(data, max_step=4) == (0.25, 0.333, 0.5, 0.0)
