"""Base-n numerals with fractional digits (`10.1_2` is 2.5), read and compared by value."""

import pytest

from scoring.answer.compare import compare_answers
from scoring.answer.readings.bases import base_value, compare_base_numbers


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
