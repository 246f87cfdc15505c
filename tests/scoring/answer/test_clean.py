"""Answer clean-ups: repairs before any comparison, the bare content the readings look at, and
the forms sent to the same-text test and to math-verify."""

import pytest

from scoring.answer.clean import (
    MAX_ANSWER_CHARS,
    bare,
    clean_answer,
    for_math_verify,
    is_prose,
    normalise,
    too_long,
)


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        (
            "$\\frac{\\text{3}}{\\text{25}}\\text{+}\\frac{\\text{4}}{\\text{25}}\\text{i}$",
            "$\\frac{3}{25}+\\frac{4}{25}i$",
        ),
        ("[-2, -1]\\bigcup[1, 2]", "[-2, -1]\\cup[1, 2]"),
        ("\x0crac{1}{2}", "\\frac{1}{2}"),
        ("\\text{cm}", "\\text{cm}"),  # a word in a wrapper stays wrapped
        ("\\\\sqrt{5}", "\\sqrt{5}"),  # escaped twice: every backslash doubled
        ("\\text {cm}", "\\text{cm}"),
        ("\\dfrac{1}{2} + \\tfrac{1}{3}", "\\frac{1}{2} + \\frac{1}{3}"),
        # a row break before a letter, among single backslashes, is no doubling
        ("\\begin{matrix}1\\\\x\\end{matrix}", "\\begin{matrix}1\\\\x\\end{matrix}"),
    ],
)
def test_clean_answer_repairs_common_breakage(raw, clean):
    assert clean_answer(raw) == clean


@pytest.mark.parametrize(
    ("raw", "latex"),
    [
        ("ln2", "\\ln 2"),
        ("ln(2)", "\\ln(2)"),
        ("pi/4", "\\pi/4"),
        ("2pi", "2\\pi"),
        ("sqrt(x+1)", "\\sqrt{x+1}"),
        ("sqrt3/2", "\\sqrt{3}/2"),
        ("cosA+sinB", "\\cos A+\\sin B"),
        ("arctan 1", "\\arctan 1"),  # not `arc` then `\\tan`
        ("tanh(x)", "\\tanh(x)"),  # not `\\tan` then `h`
        ("log2(8)", "\\log_{2}(8)"),
        ("最小值为ln2", "最小值为\\ln 2"),
        # root signs typed as characters
        ("5√2", "5\\sqrt{2}"),
        ("√(x+1)", "\\sqrt{x+1}"),
        ("∛8", "\\sqrt[3]{8}"),
        # fraction characters
        ("2½", "2 1/2"),
        ("x = ¾", "x = 3/4"),
        # fractions in Chinese words (the part after 分之 is the numerator)
        ("四分之三", "3/4"),
        ("一共吃了这块蛋糕的十二分之五", "一共吃了这块蛋糕的5/12"),
        ("百分之二十五", "25/100"),
        ("3分之2", "2/3"),
        ("四分之三千克", "3/4千克"),  # 千克 is a unit, not part of the numeral
        # clock times in Chinese, not durations
        ("10时15分", "10:15"),
        ("9点半", "9:30"),
        ("1小时45分", "1小时45分"),
        # already LaTeX, inside words, or English words a name and a letter spell: as they were
        ("\\ln 2 + \\pi", "\\ln 2 + \\pi"),
        ("using pins", "using pins"),
        ("the cost is 5", "the cost is 5"),
        ("2pir", "2pir"),
    ],
)
def test_plain_text_names_become_latex_commands(raw, latex):
    assert clean_answer(raw) == latex


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("$\\boxed{3}$.", "3"),  # delimiters, one box and closing punctuation carry no value
        ("\\(x + 1\\)", "x + 1"),
        ("5 \\text{ cm}", "5 cm"),  # a wrapper keeps its word
        ("\\left( 1, 2 \\right)", "( 1, 2 )"),
        ("\\dfrac{3}{4}", "\\frac{3}{4}"),
        ("11,\\! 111", "11,111"),
        ("\\$5", "\\$5"),  # an escaped dollar is a currency sign, not a delimiter
        ("\\boxed{1} + \\boxed{2}", "\\boxed{1} + \\boxed{2}"),  # two boxes do not enclose the text
    ],
)
def test_bare_is_what_an_answer_says(text, expected):
    assert bare(text) == expected


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("$x + 1$", "x+1", True),  # spacing and delimiters
        ("\\left(2\\right)", "(2)", True),
        ("3.", "3", True),  # a closing period
        ("\\,5", "5", True),
        ("x + 1", "x + 2", False),
        ("3.5", "35", False),  # only a closing period goes
    ],
)
def test_normalise_finds_the_same_text(a, b, same):
    assert (normalise(a) == normalise(b)) is same


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\\begin{pmatrix} 1 \\\\\n 2 \\end{pmatrix}", "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}"),
        ("x  +\n1", "x + 1"),
        ("$x$\n$y$", "$x$\n$y$"),  # delimited: math-verify reads the math where it is
        ("\\boxed{2}\n", "\\boxed{2}\n"),
        ("\\$5\n", "\\$5"),  # an escaped dollar delimits nothing
    ],
)
def test_for_math_verify_puts_a_bare_answer_on_one_line(text, expected):
    assert for_math_verify(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The answer is 5", True),
        ("一共有 30 个", True),  # Chinese characters
        ("x^2 + \\frac{1}{2}", False),  # commands are not words
        ("5 cm", False),  # one word is a unit, not prose
        ("\\text{odd}", False),
    ],
)
def test_is_prose(text, expected):
    assert is_prose(text) is expected


def test_too_long_marks_solutions_not_answers():
    assert not too_long("1" * MAX_ANSWER_CHARS, "2")
    assert too_long("1", "2" * (MAX_ANSWER_CHARS + 1))
