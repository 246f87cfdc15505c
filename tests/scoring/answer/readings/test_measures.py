"""Amounts of time and money in other units of their kind (`scoring.answer.readings.measures`)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.answer.compare import check_answer
from scoring.answer.readings.measures import amount, compare_amounts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("75 cents", ("money", Fraction(75))),
        ("$0.75", ("money", Fraction(75))),
        ("3元5角2分", ("money", Fraction(352))),  # 分 beside 元 and 角 is a fen
        ("1小时45分", ("time", Fraction(6300))),  # 分 beside hours is a minute
        ("1 hour 45 minutes", ("time", Fraction(6300))),
        ("2 hours and 30 minutes", ("time", Fraction(9000))),
        ("1.75 hours", ("time", Fraction(6300))),
        ("45分", None),  # a minute, a fen or a point: not said
        ("5", None),  # a bare number is no amount in units
        ("5 cm", None),  # a length
        ("2 hours 5 cm", None),
        ("$3 and 5 minutes", None),  # two kinds
    ],
)
def test_amounts_in_units(text, expected):
    assert amount(text) == expected


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("$0.75", "75 cents", True),
        ("$0.75", "85 cents", False),
        ("1小时45分", "1小时45分钟", True),
        ("105分钟", "1小时45分", True),
        ("2 hours", "120 minutes", True),
        ("2 hours", "100 minutes", False),
        ("3.5元", "3元5角", True),
        ("1 week", "7 days", True),
        ("5", "5 cents", None),  # the unit-dropping rule's, not this one's
        ("2 hours", "$2", None),
    ],
)
def test_amounts_of_one_kind_compare_in_its_smallest_unit(gold, pred, expected):
    assert compare_amounts(gold, pred) is expected


@pytest.mark.parametrize(
    ("text", "gold", "expected"),
    [
        ("3 × 25 = 75\nThey cost 75 cents.", "$0.75", True),  # was read as 75 dollars
        ("3 × 25 = 75\nThey cost 75 cents.", "75", True),
        ("4:15 − 2:30 = 1小时45分\n答：经过了1小时45分钟。", "1小时45分", True),  # was read as 1
        ("11 + 3 = 14\nThe answer is 2 pm.", "2:00 pm", True),
        ("11 + 3 = 14\nThe answer is 3 pm.", "2:00 pm", False),
    ],
)
def test_amounts_and_times_as_students_write_them(text, gold, expected):
    assert check_answer(text, gold, timeout=10.0).correct is expected
