"""Answers stated under the problem's question marks are read part by part; anything that only
looks like a mark (a cited equation, a product, one mark alone) is not an enumeration."""

import pytest

from scoring.parse.enumeration import enumerated_parts, enumeration_start


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("(1)3 (2)4", ["3", "4"]),
        ("(1) 是 (2) 5", ["是", "5"]),
        ("（1）是；（2）5", ["是", "5"]),  # full-width brackets, a separator after each part
        ("①3②4③5", ["3", "4", "5"]),  # circled numbers mark a part anywhere
        ("（Ⅰ）a=2；（Ⅱ）3", ["a=2", "3"]),  # Unicode roman numerals
        ("(I) yes (II) no", ["yes", "no"]),
        ("(i) 2, and (ii) 3.", ["2", "3"]),  # trailing separators and "and" are not the part's
        ("(1) x=2 (2) 由(1)得 y=5", ["x=2", "由(1)得 y=5"]),  # a cited mark stays in its part
        ("(I) yes (II) no (IV) 3", ["yes", "no (IV) 3"]),  # a gap in the numbering ends it
    ],
)
def test_enumerated_parts(text, parts):
    assert enumerated_parts(text) == parts


@pytest.mark.parametrize(
    "text",
    [
        "(2)(3)",  # a product: the numbering does not start at 1
        "(1)(2)",  # marks with nothing after them
        "(1) 3",  # one mark alone
        "由(1)得 x=3, 由(2)得 y=4",  # cited equations, not marks
        "2(1)+3 (2)",
        "(1)3 (1)4",  # the same number twice is no numbering
        "(1, 2) (3, 4)",
        "综上，(1)3；(2)4",  # enumerated, but not from its start (`enumeration_start` finds it)
    ],
)
def test_not_enumerated(text):
    assert enumerated_parts(text) is None


def test_enumeration_start():
    assert enumeration_start("综上，(1)3；(2)4") == 3
    assert enumeration_start("所以 ①是 ②5") == 3
    assert enumeration_start("由(1)(2)得 x=3") is None
    assert enumeration_start("x = 3") is None
