"""Answers that are one number, read in code: what a plain quantity is, when two are equal (the
first rule of `scoring.parse.tolerance`), units, clock times and closed expressions."""

from fractions import Fraction

import pytest

from scoring.answer.readings.numbers import (
    Quantity,
    clock_seconds,
    compare_clock_times,
    compare_quantities,
    numeric_value,
    read_quantity,
    values_equal,
    without_unit,
)


@pytest.mark.parametrize(
    ("text", "value", "percent", "unit"),
    [
        ("42", Fraction(42), False, ""),
        ("-3.5", Fraction(-7, 2), False, ""),
        ("\\frac{3}{4}", Fraction(3, 4), False, ""),
        ("2\\frac{1}{2}", Fraction(5, 2), False, ""),  # a mixed number
        ("1,234,567", Fraction(1234567), False, ""),  # thousands separators
        ("1{,}000", Fraction(1000), False, ""),
        ("3 \\times 10^{2}", Fraction(300), False, ""),
        ("1.5e-3", Fraction(3, 2000), False, ""),
        ("25\\%", Fraction(25), True, ""),  # the sign is kept apart from the value
        ("\\$12", Fraction(12), False, "currency"),
        ("€5", Fraction(5), False, "currency"),
        ("7 apples", Fraction(7), False, "apple"),  # any word after the value is its unit
        ("60^\\circ", Fraction(60), False, "^\\circ"),
    ],
)
def test_a_plain_quantity_is_a_number_with_its_marks(text, value, percent, unit):
    q = read_quantity(text)
    assert q is not None
    assert (q.value, q.percent, q.unit) == (value, percent, unit)


@pytest.mark.parametrize(
    "text",
    [
        "x + 1",  # an expression
        "2 and 3",  # two numbers
        "5x",  # a product with a letter, not a unit
        "10m",  # a short glued letter reads as a product too
        "3 times",  # a word that continues the answer is no unit
        "1,22",  # a comma that is no thousands separator
        "\\sqrt{2}",
    ],
)
def test_anything_more_than_one_quantity_is_not_read(text):
    assert read_quantity(text) is None


def test_a_decimal_comma_is_read_only_when_asked():
    assert read_quantity("1,22", decimal_comma=True) == Quantity(Fraction(122, 100), 2, 3)


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("0.5", "\\frac{1}{2}", True),  # one value, two forms
        ("2", "2.00", True),
        ("\\$2.00", "2", True),  # currency is not part of the value
        ("5 cm", "5", True),
        ("39.06\\%", "0.3906", True),  # a percent reads as its hundredth ...
        ("39.06\\%", "39.06", True),  # ... or as the number without its sign
        ("50", "0.5", False),  # a plain number is never rescaled
        ("9.03", "9.0312", True),  # three significant digits state a precision
        ("9.03", "9.0388", True),  # truncated at the written place
        ("9.03", "9.04", False),
        ("0.33", "0.3333", False),  # two digits state none: exact only
        ("4", "5", False),
        ("5 cm", "5 kg", None),  # different units: not compared here
        ("x + 1", "5", None),
    ],
)
def test_compare_quantities(gold, pred, expected):
    assert compare_quantities(gold, pred) is expected


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("1,25", "1.25", True),  # the other side has no comma: the comma is a decimal one
        ("0,111", "0.111", True),
        ("1,500", "1500", True),  # groups of three: thousands
        ("1,5", "1.5", None),  # one digit after it: as likely a list of two numbers
    ],
)
def test_a_decimal_comma_is_read_against_a_plain_quantity(gold, pred, expected):
    assert compare_quantities(gold, pred) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8\\sqrt{3} \\text{ square inches}", "8\\sqrt{3}"),
        ("12 apples", "12"),
        ("(2, 3) units", "(2, 3)"),
        ("2 and 3", "2 and 3"),  # not a unit: unchanged
        ("5x", "5x"),
        ("apples", "apples"),  # no value before it
    ],
)
def test_without_unit_drops_a_trailing_unit(text, expected):
    assert without_unit(text) == expected


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        (numeric_value("40\\pi"), numeric_value("125.664"), True),  # an exact value, rounded
        (numeric_value("\\sqrt{2}"), numeric_value("1.41"), True),
        (numeric_value("\\sqrt{2}"), numeric_value("1.4"), False),  # two digits state no precision
        (numeric_value("\\frac{\\sqrt{3}}{2}"), numeric_value("0.866"), True),
        (numeric_value("2^{10}"), numeric_value("1024"), True),
        (numeric_value("\\sqrt{4}"), numeric_value("2^{1}"), True),  # two computed values
        (numeric_value("\\pi"), numeric_value("3"), False),
    ],
)
def test_values_equal(gold, pred, expected):
    assert values_equal(gold, pred) is expected


@pytest.mark.parametrize("text", ["x + 1", "a = 2", "\\boxed{2}^2", "1 < 2", "\\sqrt{x}"])
def test_an_open_expression_or_a_relation_has_no_value(text):
    assert numeric_value(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("20:34", (20 * 3600 + 34 * 60, False)),  # may as well be a ratio
        ("8:34 p.m.", (20 * 3600 + 34 * 60, True)),
        ("12:00 AM", (0, True)),
        ("7:05:09", (7 * 3600 + 5 * 60 + 9, True)),
        ("13:00 pm", None),  # no 13 o'clock on a 12-hour dial
        ("25:00", None),
    ],
)
def test_clock_seconds(text, expected):
    assert clock_seconds(text) == expected


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("20:34", "8:34 PM", True),
        ("20:34", "20:34:00", True),
        ("8:00", "8:00 PM", False),
        ("7:32", "7:32", None),  # neither side is unmistakably a time
    ],
)
def test_compare_clock_times(gold, pred, expected):
    assert compare_clock_times(gold, pred) is expected
