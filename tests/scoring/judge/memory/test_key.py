"""The problem key: spacing is not a new problem, other text is."""

import pytest

from scoring.judge.memory import normalise_problem, problem_key

BASE = r"Solve $\left(x + 1\right)^2 = 9$ for $x > 0$."


@pytest.mark.parametrize(
    "same",
    [
        BASE,
        "  Solve  $\\left(x + 1\\right)^2 = 9$\nfor $x > 0$. ",
        r"Solve $(x+1)^2=9$ for $x>0$.",
        r"Solve $(x + 1)^2 \, = \; 9$ for $x \! > \ 0$.",
        r"Solve \((x+1)^2 = 9\) for \(x > 0\).",
        r"Solve $\bigl(x+1\bigr)^2=9$ for $x>0$.",
        "Solve $(x+1)^2=9$ for $x>0$．",  # a full-width full stop (NFKC)
    ],
)
def test_spacing_and_latex_spacing_make_no_new_problem(same):
    assert problem_key(same) == problem_key(BASE)


@pytest.mark.parametrize(
    "other",
    [
        r"Solve $(x + 1)^2 = 16$ for $x > 0$.",
        r"Solve $(x + 1)^2 = 9$ for $x < 0$.",
        r"Solve $(x - 1)^2 = 9$ for $x > 0$.",
        r"Solve $(x+1)^3 = 9$ for $x > 0$.",
    ],
)
def test_a_different_problem_is_a_different_key(other):
    assert problem_key(other) != problem_key(BASE)


def test_words_and_numbers_keep_one_space_between_them():
    assert normalise_problem("a  b") == "a b"
    assert problem_key("x = 2 3") != problem_key("x = 23")
    assert normalise_problem("求 x 的值") == normalise_problem("求x的值")
    assert len(problem_key(BASE)) == 64
