"""Answers made of several values: lists of solutions (a set), tuples and vectors (ordered),
named values, matrices entry by entry, parts with verdict words, and multi-part answers."""

import pytest

from scoring.answer.compare import compare_answers
from scoring.answer.readings.parts import (
    Parts,
    compare_matrices,
    compare_parts,
    compare_worded_parts,
    matrix_entries,
    name_of,
    read_parts,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1, 2", Parts(("1", "2"), False)),  # a bare list is a set of solutions
        ("x = 1 or x = 2", Parts(("1", "2"), False)),  # roots of one variable
        ("3；4", Parts(("3", "4"), False)),
        ("(1, 2)", Parts(("1", "2"), True, "()")),  # a tuple is ordered
        ("[1, 2]", Parts(("1", "2"), True, "[]")),
        ("\\{1, 2\\}", Parts(("1", "2"), False, "{}")),
        ("x = 1, y = 2", Parts(("1", "2"), True, "", ("x", "y"))),  # distinct names: ordered
        ("x_1 = 1, x_2 = 2", Parts(("1", "2"), False, "", ("x_1", "x_2"))),  # one variable's roots
        ("1 \\pm \\sqrt{2}", Parts(("1 + \\sqrt{2}", "1 - \\sqrt{2}"), False)),  # ± is two values
        ("2 \\pm 1, 5", Parts(("2 + 1", "2 - 1", "5"), False)),
        ("{(2, 4)}^{T}", Parts(("2", "4"), True, "()")),  # a transposed tuple is a vector
        ("1,000", None),  # a thousands separator, not a list
        ("5", None),
    ],
)
def test_read_parts(text, expected):
    assert read_parts(text) == expected


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("1, 2", "2, 1", True),  # solutions: order does not matter
        ("1, 2", "1, 3", False),
        ("1, 2", "1, 2, 2", True),  # a repeated root counts once
        ("(1, 2)", "(2, 1)", False),  # a tuple is ordered
        ("(1, 2)", "1, 2", True),  # a tuple written without its parentheses
        ("(1, 2)", "[1, 2]", None),  # a tuple and an interval: math-verify's call
        ("x = 1, y = 2", "y = 2, x = 1", True),  # matched by name
        ("x = 1, y = 2", "y = 1, x = 2", False),
        ("1, 2", "1", False),  # several solutions against one
        ("2", "x = 2", None),  # neither side is several values
        ("x, 2", "2, x", None),  # a value that is not a number: math-verify's call
        # quantities a Chinese word names are named parts, in order
        ("鸡6只，兔4只", "6, 4", True),
        ("鸡6只，兔4只", "4, 6", False),
        ("鸡6只，兔4只", "兔有4只，鸡有6只", True),  # matched by name
        ("鸡6只，兔4只", "鸡4只，兔6只", False),
    ],
)
def test_compare_parts(gold, pred, expected):
    assert compare_parts(gold, pred) is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("x = 3", ("x", "3")),
        ("x_1 = 3", ("x_1", "3")),
        ("f(x) = 2x + 3", ("f(x)", "2x + 3")),
        ("2x = 4", ("", "2x = 4")),  # the left side is no name
        ("3", ("", "3")),
        ("鸡6只", ("鸡", "6只")),
        ("面积是40平方厘米", ("面积", "40平方厘米")),
        ("鸡兔同笼", ("", "鸡兔同笼")),  # no quantity
    ],
)
def test_name_of(value, expected):
    assert name_of(value) == expected


def test_matrix_entries_are_rows_of_cells():
    text = "A = \\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"
    assert matrix_entries(text) == [["1", "2"], ["3", "4"]]
    assert matrix_entries("\\begin{pmatrix}1\\end{pmatrix}\\begin{pmatrix}2\\end{pmatrix}") is None


M = "\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}"


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        (M, "\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}", True),  # brackets carry nothing
        (M, "\\begin{pmatrix} 1 & 2 \\\\ 3 & 5 \\end{pmatrix}", False),
        (M, "\\begin{pmatrix} 1 & 3 \\\\ 2 & 4 \\end{pmatrix}", False),  # transposed: other entries
        (M, "\\begin{pmatrix} 1 & 2 & 3 & 4 \\end{pmatrix}", False),  # another shape
        ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "(1, 2)", True),  # a column is a vector
        ("\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "(2, 1)", None),  # only equality is decided
        (M, "(1, 2, 3, 4)", None),  # a square matrix is no vector
        ("5", "6", None),
    ],
)
def test_compare_matrices(gold, pred, expected):
    assert compare_matrices(gold, pred) is expected


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
