"""Whole numbers written in words, English and Chinese: read when well formed, refused when not,
and found in running text only where they count something."""

import pytest

from scoring.parse.number_words import (
    chinese_integer,
    english_integer,
    number_in_words,
    numbers_in_words,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("zero", 0),
        ("five", 5),
        ("Nineteen", 19),
        ("twenty-one", 21),
        ("ninety nine", 99),
        ("one hundred", 100),
        ("one hundred and five", 105),
        ("three hundred twelve", 312),
        ("two thousand three hundred", 2300),
        ("one thousand and one", 1001),
        ("ten thousand", 10000),
        ("one million two hundred thousand", 1_200_000),
        ("minus seven", -7),
        ("negative twelve", -12),
        # not numbers: repeated, out of order, or only a scale
        ("five five", None),
        ("twenty thirty", None),
        ("hundred", None),
        ("thousand million", None),
        ("one hundred and", None),
        ("ten hundred", None),
        ("zero thousand", None),
        ("", None),
    ],
)
def test_english_integer(text, value):
    assert english_integer(text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("五", 5),
        ("十二", 12),
        ("二十", 20),
        ("三百零五", 305),
        ("两千", 2000),
        ("一万二千", 12000),
        ("三万零五", 30005),
        ("负五", -5),
        ("二三", None),
        ("", None),
    ],
)
def test_chinese_integer(text, value):
    assert chinese_integer(text) == value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Five.", 5),
        ("三百零五。", 305),
        (" twenty-one ", 21),
        ("five apples", None),
        ("5", None),
        ("五个", None),
    ],
)
def test_number_in_words_is_the_whole_text(text, value):
    assert number_in_words(text) == value


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("So the answer is five.", [5]),
        ("He has two cats and three dogs.", [2, 3]),
        ("So the answer is one.", [1]),
        # "one" as a pronoun, and a number word inside another word, are not numbers
        ("The final answer is the boxed one.", []),
        ("Take each one; one of them is red.", []),
        ("a one-to-one map", []),
        ("someone and stone", []),
        # a Chinese numeral counts before a measure word or closing its clause, not inside a word
        ("答：一共有十二个。", [12]),
        ("答案是三百零五", [305]),
        ("第一步，统一。", []),
        ("四分之三", []),
    ],
)
def test_numbers_in_running_text(text, values):
    assert [v for _, _, v in numbers_in_words(text)] == values
