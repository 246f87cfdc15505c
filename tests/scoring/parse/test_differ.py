"""Same function or not, decided at a few rational points; "cannot tell" when it cannot read."""

import pytest

from scoring.parse.differ import differ, value_at
from scoring.parse.mathparse import parse_math


@pytest.mark.parametrize(("a", "b", "scaled", "expected"), [
    ("2(x+1)", "2x+2", False, False),
    ("x^2-1", "(x-1)(x+1)", False, False),
    ("x^2-1", "(x-1)(x+2)", False, True),
    ("3/4", "0.75", False, False),
    ("\\frac{1}{3}", "0.3", False, True),
    ("2x+4", "x+2", False, True),
    ("2x+4", "x+2", True, False),  # a constant factor apart
    ("2x+4", "x+3", True, True),
    ("0", "x-x", True, False),
    ("a+b+c+d+e+f+g", "g+f+e+d+c+b+a", False, None),  # more unknowns than it probes
    ("x+", "x", False, None),  # unreadable
])
def test_differ(a, b, scaled, expected):
    assert differ(a, b, scaled=scaled) is expected


def test_value_at_is_none_where_evaluation_fails():
    assert value_at(parse_math("x+1"), {"x": 2}) == 3
    assert value_at(parse_math("1/0"), {}) is None
    assert value_at(parse_math("y"), {}) is None
