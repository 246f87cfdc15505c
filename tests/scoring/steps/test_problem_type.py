import pytest

from scoring.steps.difficulty import DifficultyConfig, calibrate_difficulty
from scoring.steps.problem_type import detect_problem_type


@pytest.mark.parametrize(
    ("problem", "expected"),
    [
        ("Prove that the square root of 2 is irrational.", "proof"),
        ("Show that n^3 - n is divisible by 6 for every integer n.", "proof"),
        ("证明：对任意正整数 n，n^3 - n 能被 6 整除。", "proof"),
        (
            "Give two examples of functions that are continuous but not differentiable at 0.",
            "open_ended",
        ),
        ("写出至少两个满足条件的函数。", "open_ended"),
        ("Solve 2x + 5 = 13.", "calculation"),
        ("求函数 f(x) = x^2 的最小值。", "calculation"),
    ],
)
def test_detect_problem_type(problem, expected):
    assert detect_problem_type(problem) == expected


def test_difficulty_levels():
    simple = calibrate_difficulty("Compute 2 + 3.", 1, "calculation")
    assert (simple.level, simple.process_evaluation_needed) == (1, False)
    medium = calibrate_difficulty("Compute 2 + 3.", 4, "calculation")
    assert (medium.level, medium.process_evaluation_needed) == (2, True)
    hard = calibrate_difficulty("Prove it.", 9, "proof")
    assert (hard.level, hard.process_evaluation_needed) == (3, True)
    # a proof is never "simple", however short
    assert calibrate_difficulty("Prove it.", 1, "proof").process_evaluation_needed
    assert calibrate_difficulty("x" * 500, 1, "calculation", DifficultyConfig()).level == 2
