"""The calibration report's perturbation AUCs, per type and over repeated steps."""

import pytest

from tests.eval_sets.calibrate.conftest import observed_solution


def _graded(subset, p_wrong, redundancy):
    from dataclasses import replace

    from eval_sets.calibrate.fit import Grade

    base = observed_solution([False] * len(p_wrong), [[] for _ in p_wrong])
    observed = replace(base, solution=replace(base.solution, set="perturbation", subset=subset))
    return Grade(observed, ["correct"] * len(p_wrong), list(p_wrong), list(redundancy), 10, None)


def test_perturbations_follow_reasoneval_protocol_for_repeated_steps():
    from eval_sets.calibrate.report import perturbation_aucs

    originals = [
        _graded("original", [0.1, 0.2], [0.05, 0.05]),
        _graded("original", [0.3, 0.1], [0.05, 0.05]),
    ]
    # A slip raises P(wrong); a repeated step is not wrong, only redundant.
    slips = [_graded("random number", [0.1, 0.9], [0.05, 0.05])]
    repeats = [_graded("repeat step", [0.1, 0.1], [0.05, 0.9])]
    pooled, protocol = perturbation_aucs([*originals, *slips, *repeats])
    assert pooled == pytest.approx(0.5)  # the repeat ranks below both originals by P(wrong)
    assert protocol == pytest.approx(1.0)  # each type is ranked by the score that measures it


def test_each_perturbation_type_is_ranked_against_the_originals_on_its_own():
    from eval_sets.calibrate.report import perturbation_type_aucs

    originals = [
        _graded("original", [0.1, 0.2], [0.05, 0.05]),
        _graded("original", [0.3, 0.1], [0.05, 0.05]),
    ]
    # One swap ranks above both originals, the other between them; the removal below both.
    swaps = [
        _graded("swap steps", [0.1, 0.4], [0.05, 0.05]),
        _graded("swap steps", [0.25, 0.1], [0.05, 0.05]),
    ]
    removals = [_graded("remove step", [0.05], [0.05])]
    repeats = [_graded("repeat step", [0.1, 0.1], [0.05, 0.9])]
    found = perturbation_type_aucs([*originals, *swaps, *removals, *repeats])
    assert found == {
        "remove step": (1, pytest.approx(0.0)),
        "repeat step": (1, pytest.approx(1.0)),
        "swap steps": (2, pytest.approx(0.75)),
    }
