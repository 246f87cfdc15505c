"""Platt recalibration and the choice of its scope out of fold."""

import numpy as np
import pytest


def test_platt_recovers_a_known_map_and_shifts_when_the_log_odds_do_not_vary():
    from eval_sets.calibrate.recalibrate import Scored, fit_platt

    rng = np.random.default_rng(0)
    z = rng.normal(-1.0, 1.5, 4000)
    wrong = rng.random(4000) < 1 / (1 + np.exp(-(0.5 * z + 0.3)))
    platt = fit_platt([Scored(float(a), bool(b), 1.0, "proof") for a, b in zip(z, wrong)])
    assert platt is not None and platt.slope == pytest.approx(0.5, abs=0.08)
    assert platt.intercept == pytest.approx(0.3, abs=0.1)
    # one log-odds for every step (a model reading only the problem type): a shift to the rate
    flat = [Scored(-1.0, i % 4 == 0, 1.0, "proof") for i in range(400)]
    shift = fit_platt(flat)
    assert shift is not None and shift.slope == 1.0
    assert 1 / (1 + np.exp(-shift(-1.0))) == pytest.approx(0.25, abs=0.01)  # Platt's targets
    assert fit_platt(flat[:100]) is None  # too few steps


def test_recalibration_scope_keeps_a_per_type_shift_that_holds_out_of_fold():
    from eval_sets.calibrate.recalibrate import Scored, cross_validated_ece, maps_of

    rng = np.random.default_rng(1)

    def steps(kind: str, shift: float, n: int) -> list[Scored]:
        z = rng.normal(-1.0, 1.0, n)
        wrong = rng.random(n) < 1 / (1 + np.exp(-(z + shift)))
        return [
            Scored(float(a), bool(b), 1.0, kind, i % 5) for i, (a, b) in enumerate(zip(z, wrong))
        ]

    # proofs are truly 1.5 log-odds more often wrong than their log-odds say: a type's own map wins
    shifted = steps("calculation", 0.0, 1500) + steps("proof", 1.5, 1500)
    per_type, pooled = (cross_validated_ece(shifted, s) for s in ("per_type", "pooled"))
    assert per_type is not None and pooled is not None and per_type < pooled
    assert set(maps_of(shifted, "per_type")) == {"calculation", "proof", "any"}
    assert set(maps_of(shifted, "pooled")) == {"any"}


def test_the_recalibration_scope_is_chosen_on_every_group_alike():
    """A map per group of grades, when one group's log-odds are off by a shift the others' are
    not; the choice reads each group's ECE alike, so a large group cannot hide a small one."""
    from eval_sets.calibrate.recalibrate import Scored, cross_validated_ece, maps_of

    rng = np.random.default_rng(2)

    def steps(group: str, shift: float, n: int) -> list[Scored]:
        z = rng.normal(-1.5, 1.0, n)
        wrong = rng.random(n) < 1 / (1 + np.exp(-(z + shift)))
        return [
            Scored(float(a), bool(b), 1.0, "calculation", i % 5, "unchecked", group)
            for i, (a, b) in enumerate(zip(z, wrong, strict=True))
        ]

    scored = steps("answer_right", 0.0, 3000) + steps("answer_wrong", 1.5, 600)
    by_group, pooled = (cross_validated_ece(scored, s) for s in ("per_group", "pooled"))
    assert by_group is not None and pooled is not None and by_group < pooled
    assert set(maps_of(scored, "per_group")) == {"group:answer_right", "group:answer_wrong", "any"}
    assert set(maps_of(scored, "per_group_state")) >= {"group:answer_wrong|state:unchecked"}
