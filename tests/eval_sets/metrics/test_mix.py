"""Re-weighting to another mix of problems: both margins met, proportions kept within cells."""

import pytest

from eval_sets.metrics.mix import mix_weights


def share(weights, flags):
    return sum(w for w, f in zip(weights, flags, strict=True) if f) / sum(weights)


def test_raking_meets_both_margins():
    proof = [True, True, False, False, False, False, False, False, False, False]
    failed = [False, True, True, False, False, False, True, False, False, False]
    weights = mix_weights(proof, failed, 0.29, 0.46)
    assert share(weights, proof) == pytest.approx(0.29, abs=1e-6)
    assert share(weights, failed) == pytest.approx(0.46, abs=1e-6)
    assert sum(weights) / len(weights) == pytest.approx(1.0)
    # two solutions in the same cell keep equal weights
    assert weights[3] == pytest.approx(weights[4])


def test_the_set_as_it_is_keeps_its_weights():
    proof, failed = [True, False, False, False], [False, True, False, False]
    assert mix_weights(proof, failed, 0.25, 0.25) == pytest.approx([1.0] * 4)


@pytest.mark.parametrize(
    ("proof", "failed", "shares"),
    [
        ([False, False], [True, False], (0.3, 0.5)),  # no proof to give 30% of the weight
        ([True, False], [True, True], (0.5, 0.5)),  # every solution failed
        ([True, False], [True, False], (1.5, 0.5)),
    ],
)
def test_a_mix_the_set_cannot_reach_is_refused(proof, failed, shares):
    with pytest.raises(ValueError):
        mix_weights(proof, failed, *shares)
