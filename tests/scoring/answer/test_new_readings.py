"""Readings human graders accept: a stated precision, matrices entry by entry, multi-part answers
with verdict words, base-n numerals with fractional digits (hand-written cases)."""

import pytest

from scoring.answer.compare import check_answer, compare_answers
from scoring.answer.readings.bases import base_value, compare_base_numbers
from scoring.answer.readings.parts import compare_matrices, compare_worded_parts
from scoring.answer.readings.rounding import stated_places, within_stated_precision


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


@pytest.mark.parametrize(
    ("gold", "pred", "verdict"),
    [
        (
            r"\begin{pmatrix} 1/2 & 0 \\ 0 & 1 \end{pmatrix}",
            r"\begin{bmatrix}0.5&0\\0&1\end{bmatrix}",
            True,
        ),
        (
            r"\begin{pmatrix} \cos\theta & -\sin\theta \end{pmatrix}",
            r"\begin{bmatrix}\cos \theta & - \sin\theta\end{bmatrix}",
            True,
        ),
        (r"\begin{pmatrix} x & 1 \end{pmatrix}", r"\begin{pmatrix} x & 2 \end{pmatrix}", False),
        (r"\begin{pmatrix} x & 1 \end{pmatrix}", r"\begin{pmatrix} 2x/2 & 1 \end{pmatrix}", None),
        (r"\begin{pmatrix} 1 & 2 \end{pmatrix}", r"\begin{pmatrix} 1 \\ 2 \end{pmatrix}", False),
    ],
)
def test_matrices_entry_by_entry(gold, pred, verdict):
    assert compare_matrices(gold, pred) is verdict


@pytest.mark.parametrize(
    ("gold", "pred", "verdict"),
    [
        ("是，3", "是；3", True),
        ("是，3", "对, 3", True),  # synonyms share a polarity
        ("不是，2", "否，2", True),
        ("Yes, 3", "yes; 3", True),
        ("是，3", "是，4", False),  # the verdict alone used to decide this
        ("是，3", "不是，3", False),
        ("是，3", "3，是", False),  # parts in order
        ("Yes, as 3 > 2", "Yes", None),  # an explanation, not parts
        ("1, 2", "1, 2", None),  # no verdict word: the other readings' call
    ],
)
def test_worded_parts(gold, pred, verdict):
    assert compare_worded_parts(gold, pred) is verdict


def test_worded_parts_come_before_the_verdict_word():
    result = compare_answers("是，3", "是，4")
    assert (result.verdict, result.reading, result.route) == (False, "worded_parts", "parts")


@pytest.mark.parametrize(
    ("gold", "pred", "verdict", "reading"),
    [
        ("3;4", "(1)3 (2)4", True, "multi_part"),  # part k answers question k
        ("(1)3 (2)4", "(1)4 (2)3", False, "multi_part"),  # not the product 24 on both sides
        ("(1)3 (2)4", "24", False, "multi_part"),
        ("(1)3 (2)4", "①3②4", True, "multi_part"),
        ("(1) a=2 (2) b=3", "b=3, a=2", True, "multi_part"),  # named parts match by name
        ("是;5", "(1) 是 (2) 5", True, "worded_parts"),
        ("(1) 是 (2) 5", "（1）不是；（2）5", False, "worded_parts"),  # not "5" against "5"
        ("不是;5", "5", False, "math_verify"),  # a verdict and a value, not the value alone
    ],
)
def test_multi_part_answers_are_compared_part_by_part(gold, pred, verdict, reading):
    result = compare_answers(gold, pred)
    assert (result.verdict, result.reading) == (verdict, reading)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("10.1_2", 2.5),
        ("(10.1)_2", 2.5),
        ("10.11_{2}", 2.75),
        ("0.11_{(2)}", 0.75),
        ("12.5_8", 10.625),
        ("2A.8_{16}", 42.5),
        ("-1.1_2", -1.5),
        ("12_2", None),  # 2 is not a binary digit
        ("A_{12}", None),  # an indexed name
        ("x_2", None),
        ("3_{10}", None),
    ],
)
def test_base_value(text, value):
    got = base_value(text)
    assert (None if got is None else float(got)) == value


@pytest.mark.parametrize(
    ("gold", "pred", "verdict"),
    [
        ("10.1_2", "2.5", True),
        ("2.5", "10.1_2", True),
        ("10.1_2", "\\frac{5}{2}", True),
        ("10.1_2", "2.6", False),
        ("0.11_2", "0.3_4", True),
        ("10.1_2", "x", None),
    ],
)
def test_base_numbers(gold, pred, verdict):
    assert compare_base_numbers(gold, pred) is verdict
    if verdict is not None:
        assert compare_answers(gold, pred).reading == "base_number"


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("2", "x<1或x>2"),  # a bound of the condition is not its value
        ("3", "x>1 且 x<3"),
        ("2", "a 的取值范围是 a>2"),
    ],
)
def test_a_condition_is_not_restated_as_its_bound(gold, pred):
    assert compare_answers(gold, pred).verdict is False


def test_an_interval_equals_its_condition():
    result = compare_answers(r"(-\infty,1)\cup(2,+\infty)", "x<1或x>2")
    assert (result.verdict, result.reading, result.route) == (True, "solution_set", "math_verify")
