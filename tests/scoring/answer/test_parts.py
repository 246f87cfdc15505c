"""Answers made of several values: lists of solutions (a set), tuples and vectors (ordered),
named values, and matrices entry by entry."""

import pytest

from scoring.answer.readings.parts import (
    Parts,
    compare_matrices,
    compare_parts,
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
