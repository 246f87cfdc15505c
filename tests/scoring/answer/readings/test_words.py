"""Answers that are words: yes/no verdicts by polarity, and option letters as a reference names
them and as a prediction chooses them."""

import pytest

from scoring.answer.readings.words import (
    chosen_option,
    compare_choices,
    compare_yes_no,
    gold_choice,
    yes_no,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Yes", True),
        ("yes, because 4 is even", True),  # followed by its explanation
        ("True.", True),  # synonyms share a polarity
        ("\\text{No}", False),
        ("否，不存在", False),
        ("是的", True),
        ("不成立", False),
        ("No solution", None),  # not a verdict
        ("Yesterday", None),
        ("5", None),
    ],
)
def test_yes_no(text, expected):
    assert yes_no(text) is expected


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("Yes", "true", True),
        ("是", "Yes", True),  # across languages
        ("Yes", "No", False),  # a verdict never matches its opposite
        ("正确", "错误", False),
        ("Yes", "5", None),
    ],
)
def test_compare_yes_no(gold, pred, expected):
    assert compare_yes_no(gold, pred) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("C", "C"),
        ("(C)", "C"),
        ("C. Cecile", "C"),
        ("We compute it, so the answer is (B) here", "B"),
        ("Cecile", None),  # a name, not a letter
        ("x + 1", None),
    ],
)
def test_gold_choice(text, expected):
    assert gold_choice(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\\boxed{D}", "D"),
        ("\\boxed{\\text{(B)}}", "B"),
        ("The answer is C.", "C"),
        ("D, it can't be A or B", "D"),  # negated letters are ruled out
        ("not A, so B", "B"),
        ("It cannot be B, so D", "D"),  # 'cannot be', 'can not be' and 'isn't' rule out too
        ("it can not be A, so C", "C"),
        ("It isn't A; D", "D"),
        ("A", "A"),
        ("x = A + 1", None),  # a letter in a formula is no option
    ],
)
def test_chosen_option(text, expected):
    assert chosen_option(text) == expected


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("B", "The answer is (B).", True),
        ("(B)", "\\boxed{C}", False),
        ("B", "it can't be B", None),  # no option chosen
        ("5", "B", None),  # the reference is no letter
    ],
)
def test_compare_choices(gold, pred, expected):
    assert compare_choices(gold, pred) is expected
