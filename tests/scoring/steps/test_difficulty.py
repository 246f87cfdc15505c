"""The offline difficulty estimate: a level from the text alone, within 1 and 3."""

import math

import pytest

from scoring.steps.difficulty import DIFFICULTY_FEATURES, difficulty_features, estimate_difficulty

EASY = (
    "Tom has 3 apples and buys 4 more. How many apples does he have?",
    ["3 + 4 = 7", "He has 7 apples."],
)
HARD = (
    (
        "Let $f(x) = \\ln(x^2 + 1)$. Find $\\lim_{x \\to \\infty} \\frac{f(x)}{\\log x}$ and "
        "prove that $\\sum_{n=1}^{\\infty} \\frac{1}{n^2}$ converges for every real $a$ and $b$."
    ),
    [
        (
            "Write $f(x) = 2\\ln x + \\ln(1 + x^{-2})$ for large x, so the quotient tends to 2 "
            "after dividing by $\\log x$, since the second term tends to 0."
        ),
        "The series is bounded by $1 + \\int_1^{\\infty} x^{-2} dx = 2$.",
        "So it converges, by comparison with the integral.",
    ],
)


def test_the_features_read_length_notation_letters_and_steps():
    easy, hard = difficulty_features(*EASY), difficulty_features(*HARD)
    assert set(easy) == set(DIFFICULTY_FEATURES)
    assert easy["log_notation"] == 0.0 < hard["log_notation"]
    assert easy["log_letters"] < hard["log_letters"]
    assert easy["log_steps"] == pytest.approx(math.log(2))
    assert hard["log_step_chars"] > easy["log_step_chars"]


def test_the_estimate_is_a_level_between_1_and_3():
    weights = {"bias": 0.5, "log_notation": 0.6, "log_letters": 0.3}
    assert estimate_difficulty(*EASY, weights) < estimate_difficulty(*HARD, weights)
    assert estimate_difficulty(*HARD, {"bias": 9.0}) == 3.0
    assert estimate_difficulty(*EASY, {"bias": -9.0}) == 1.0
    assert estimate_difficulty(*EASY, {}) == 1.0  # no weights: the easiest level
    assert difficulty_features("", [])["log_steps"] == 0.0  # no steps reads as one
