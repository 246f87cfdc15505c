"""Numbers computed with rounded quantities are equal within 1e-4; exact computations stay exact;
a precision the problem states (decimal places) equates answers a unit apart in that place."""

import pytest

from scoring.answer.compare import check_answer, compare_answers
from scoring.answer.readings.rounding import (
    computed_inexactly,
    stated_places,
    within_rounding,
    within_stated_precision,
)


@pytest.mark.parametrize(
    "text",
    [
        "The distance is approximately 12.4 km.",
        r"$x \approx 3.162$",
        "总重量 ≈ 9369646 磅",
        "1 mile = 1.609 km, so 26.2 miles is 42.16 km",
        "1 公吨 = 2204.62262 磅",
        "Rounded to the nearest cent, the price is $4.17.",
        "结果约 3.14 米",
        "保留两位小数，得 2.45",
    ],
)
def test_inexact_quantities_are_seen(text: str) -> None:
    assert computed_inexactly(text)


@pytest.mark.parametrize(
    "text",
    [
        "There are 10000 ways to choose them.",
        "1 dozen = 12 eggs, so 5 dozen is 60 eggs.",
        "1 inch = 2.54 cm",  # three significant digits: the exact definition, not a rounding
        "先约分，得 3/4",  # 约分 reduces a fraction; 约 before a number is "about"
        "The price is $12.50 for each of 3 books: $37.50.",
        "",
    ],
)
def test_exact_computations_are_not(text: str) -> None:
    assert not computed_inexactly(text)


def test_a_long_solution_is_read_whole() -> None:
    work = "We add the numbers one by one. " * 40  # longer than any answer
    assert computed_inexactly(work + "so the total is approximately 12.4 km")
    assert not computed_inexactly(work + "so the total is 12.4 km")


def test_within_rounding_is_relative_and_only_equates() -> None:
    assert within_rounding("9369635", "9369646.135") is True
    assert within_rounding("4250,9369635", "4250,9369646") is True
    assert within_rounding("10000", "10001") is True  # Qwen2.5-Math's risk, hence the gate
    assert within_rounding("1000", "1001") is None
    assert within_rounding("3.14", "3.15") is None
    assert within_rounding("1, 2", "1") is None
    assert within_rounding("x + 1", "x + 1.00001") is None
    assert within_rounding("(0, 9)", "(0, 9.0001)") is True
    assert within_rounding("(0, 9)", "[0, 9)") is None  # an open interval is not a closed one


def test_counts_stay_different_without_an_inexact_quantity() -> None:
    exact = "Each of the 10001 seats is taken, so the answer is \\boxed{10001}."
    assert check_answer(exact, "10000", problem="How many seats are taken?").correct is False
    assert compare_answers("10000", "10001").verdict is False
    assert compare_answers("10000", "10001", inexact=True).verdict is True


def test_a_rounded_conversion_factor_allows_a_differently_rounded_reference() -> None:
    text = "1 t = 2204.62262 lb, so 4250 t = 9369646.135 lb.\n\nFinal answer: \\boxed{9369646}"
    check = check_answer(text, "9369635", problem="Convert 4250 tonnes to pounds.")
    assert check.correct is True and check.reading == "rounded_computation"
    assert check_answer(text, "9369635", rounding=False).correct is False
    assert check_answer(text, "9370646").correct is False  # 1e-4 away: a different answer


def test_an_approximation_in_the_problem_counts() -> None:
    text = "Area = 3.14 * 100 = \\boxed{314.16}"
    assert check_answer(text, "314.159", problem="Take pi as approximately 3.1416.").correct
    assert check_answer(text, "314.159", problem="Find the area.").correct is False


@pytest.mark.parametrize(
    ("problem", "places"),
    [
        ("Round your answer to two decimal places.", 2),
        ("Give the result to 3 decimal places.", 3),
        ("Express it as a decimal to the nearest hundredth.", 2),
        ("to the nearest ten-thousandth", 4),
        ("Round to the nearest whole number.", 0),
        ("结果保留两位小数。", 2),
        ("精确到0.1", 1),
        ("精确到百分位", 2),
        ("Express your answer as a decimal.", None),
        ("Round x to one decimal place and y to two decimal places.", None),  # two precisions
        ("", None),
    ],
)
def test_stated_places(problem, places):
    assert stated_places(problem) == places


@pytest.mark.parametrize(
    ("gold", "pred", "places", "verdict"),
    [
        ("5.78", "5.79", 2, True),  # a unit off in the asked place
        ("5.78", "5.77", 2, True),
        ("5.78", "5.80", 2, None),  # two units off
        ("5.78", "\\frac{52}{9}", 2, True),
        ("(1.23, 4.56)", "(1.24, 4.55)", 2, True),
        ("(1.23, 4.56)", "[1.24, 4.55]", 2, None),  # a tuple is not an interval
        ("0.05", "0.06", 2, None),  # a unit of that place is 20% of the value: another answer
        ("138", "139", 0, None),  # whole numbers: another count
        ("5.78", "x", 2, None),
    ],
)
def test_within_stated_precision(gold, pred, places, verdict):
    assert within_stated_precision(gold, pred, places) is verdict


def test_the_problems_precision_decides_a_pair():
    assert compare_answers("5.78", "5.79", places=2).reading == "stated_precision"
    assert compare_answers("5.78", "5.79").verdict is False
    solution = "So the mean is \\boxed{5.79}."
    assert check_answer(solution, ["5.78"], problem="Round to two decimal places.").correct
    assert check_answer(solution, ["5.78"], problem="Find the mean.").correct is False
    assert (
        check_answer(
            solution, ["5.78"], problem="Round to two decimal places.", rounding=False
        ).correct
        is False
    )
