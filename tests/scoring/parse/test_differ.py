"""Same function or not, decided at a few points; "cannot tell" when it cannot read."""

from fractions import Fraction

import pytest

from scoring.parse.differ import SamplePoints, differ, differ_at_points, value_at
from scoring.parse.mathparse import parse_math


@pytest.mark.parametrize(
    ("a", "b", "scaled", "expected"),
    [
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
    ],
)
def test_differ(a, b, scaled, expected):
    assert differ(a, b, scaled=scaled) is expected


def test_value_at_is_none_where_evaluation_fails():
    assert value_at(parse_math("x+1"), {"x": 2}) == 3
    assert value_at(parse_math("1/0"), {}) is None
    assert value_at(parse_math("y"), {}) is None


THREE = SamplePoints(points=((Fraction(1),), (Fraction(2),), (Fraction(3),)), tolerance=1e-6)
STRICT = SamplePoints(points=THREE.points, tolerance=1e-6, give_up_on_failure=True)


def square(probe):
    return probe[0] ** 2


def fails_at_two(probe):
    return None if probe[0] == 2 else probe[0] ** 2 + 1


def fails_but_at_one(probe):
    return probe[0] ** 2 + 1 if probe[0] == 1 else None


@pytest.mark.parametrize(
    ("a", "b", "config", "expected"),
    [
        (square, lambda p: p[0] * p[0], THREE, False),  # agree at a point: not shown different
        (square, lambda p: p[0] ** 2 + 1, THREE, True),  # differ at every point
        (square, fails_at_two, THREE, True),  # a failed point is skipped: two points decided
        (square, fails_but_at_one, THREE, None),  # one point decided is too few to tell
        (square, fails_at_two, STRICT, None),  # with give_up_on_failure, one failure says nothing
        (square, lambda p: p[0] ** 2 + 1e-9, THREE, False),  # within the tolerance
        (lambda p: complex(p[0], 1), lambda p: complex(p[0], 2), THREE, True),  # complex values
    ],
)
def test_differ_at_points_by_its_config(a, b, config, expected):
    assert differ_at_points(a, b, 1, config) is expected


def test_differ_at_points_reads_constants_at_one_point_and_refuses_too_many_variables():
    assert differ_at_points(lambda p: Fraction(2), lambda p: Fraction(3), 0, STRICT) is True
    assert differ_at_points(square, square, 2, THREE) is None  # THREE has one coordinate


def test_scaled_ignores_a_constant_factor():
    assert differ_at_points(square, lambda p: 3 * p[0] ** 2, 1, THREE, scaled=True) is False
    assert differ_at_points(square, lambda p: p[0] ** 3, 1, THREE, scaled=True) is True
