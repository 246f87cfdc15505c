"""The one tolerance policy: the rules' constants are ordered as the policy explains, and the
readers that take them compare numbers at those bounds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.answer.readings.rounding import within_rounding
from scoring.parse import tolerance
from scoring.parse.approximation import close


def test_the_rules_are_ordered_from_tightest_to_loosest():
    """Two computed values differ by float noise only; a differently rounded input is looser;
    a step's approximation is loosest."""
    assert (
        0 < tolerance.COMPUTED_REL_TOL < tolerance.ROUNDED_REL_TOL < tolerance.APPROXIMATE_REL_TOL
    )
    assert tolerance.FLOAT_NOISE < tolerance.ROUNDED_REL_TOL
    assert tolerance.MIN_SIGNIFICANT >= 2 and tolerance.FACTOR_DIGITS > tolerance.MIN_SIGNIFICANT
    assert tolerance.STATED_PLACE_UNITS >= 1


@pytest.mark.parametrize(
    ("pred", "equal"),
    [("1000.05", True), ("1000.2", False)],  # 5e-5 and 2e-4 of the value
)
def test_rule_2_equates_within_the_rounded_tolerance(pred, equal):
    assert (within_rounding("1000", pred) is True) is equal


def test_rule_3_allows_the_approximate_tolerance_only_for_an_approximation():
    near = Fraction(1000) * (1 + Fraction(tolerance.APPROXIMATE_REL_TOL) / 2)
    far = Fraction(1000) * (1 + Fraction(tolerance.APPROXIMATE_REL_TOL) * 2)
    assert close(Fraction(1000), near, "1000", str(near), approximate=True)
    assert not close(Fraction(1000), far, "1000", str(far), approximate=True)
    assert not close(Fraction(1000), near, "1000", str(near), approximate=False)
