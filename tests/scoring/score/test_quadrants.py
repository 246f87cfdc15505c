import pytest

from scoring.score.quadrants import quadrant


@pytest.mark.parametrize(
    ("process", "correct", "expected"),
    [
        (0.9, True, "robust"),
        (0.9, False, "hallucination"),
        (0.2, True, "lucky_guess"),
        (0.2, False, "failure"),
        (0.7, True, "robust"),
    ],
)
def test_quadrants(process, correct, expected):
    assert quadrant(process, correct, 0.7) == expected
