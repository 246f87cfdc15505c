"""Answers as students and chat models type them: markdown emphasis, numbers in words, step
labels, a named object's value, a final marker after an intermediate box, multi-part answers,
spaced thousands and bare decimals, an option letter alone, and the cases a strict reading must
refuse. Each table reads the text as a grade does (`find_answer`, `check_answer`)."""

import pytest

from scoring.answer.clean import clean_answer, readable, without_emphasis
from scoring.answer.compare import check_answer
from scoring.answer.extract import find_answer, sides, without_step_labels

# A number in words is that number (English and Chinese).
NUMBER_WORDS = [
    ("There are 3 red and 2 blue.\nSo the answer is five.", "5", True),
    ("There are 3 red and 2 blue.\nSo the answer is five.", "6", False),
    ("So the answer is twenty-one.", "21", True),
    ("The answer is one hundred and five.", "105", True),
    ("There are 3 red and 2 blue, so five in all.", "5", True),
    ("He has two cats and three dogs, so five pets.", "5", True),
    ("所以答案是五。", "5", True),
    ("答：一共有十二个。", "12", True),
    ("答：三百零五", "305", True),
    ("答：共有五个苹果。", "6", False),
    # "one" as a pronoun is no number: the box stays the answer
    ("\\boxed{3}\nThe final answer is the boxed one.", "3", True),
]

# A multi-part answer is compared part by part.
MULTI_PART = [
    ("$$\\boxed{(3, 3)} \\text{ for part (a) and } \\boxed{(1, 1)}$$", "(3, 3), (1, 1)", True),
    ("$$\\boxed{(3, 3)} \\text{ for part (a) and } \\boxed{(1, 1)}$$", "(3, 3), (1, 2)", False),
    ("(a) \\boxed{3}; (b) \\boxed{4}", "3, 4", True),
]

# Spaced thousands and bare decimals are the numbers they are; a sign before a fraction is kept.
SPACED_AND_BARE = [
    ("The total is 1 000 dollars.", "1000", True),
    ("In all, 12 345 people came.", "12345", True),
    ("So x = .4", "0.4", True),
    ("So x = -.5", "-0.5", True),
    ("So x = .4", "4", False),
    ("The result is -\\frac{10}{9}", "-10/9", True),
    ("The result is -\\frac{10}{9}", "10/9", False),
]

# An option letter alone gives a verdict.
OPTION_LETTER = [
    ("\\text{E}", "E", True),
    ("\\text{E}", "(E)", True),
    ("The options were compared.\n\\textbf{(C)}", "C", True),
    ("\\text{E}", "(D)", False),
]

# The closing statement gives the value, not the object it names.
NAMED_OBJECT = [
    ("Final Answer: The volume of $ABCDEFGH$ is 120. I hope it is correct.", "120"),
    ("Final Answer: The maximum number of points in the domain of $f(x)$ is 19.", "19"),
    ("答：$ABCD$ 的面积是 40 平方厘米。", "40 平方厘米"),
    # a formula with digits before the verb is the answer, not a name
    ("Final answer: $x = 5$ is the root.", "x = 5"),
    ("The answer is: the largest $n$ is $34$.", "34"),
    ("The answer is $x$, which is 5.", "5"),
    # a verb in a clause of its own does not state the answer
    ("The final answer is $\\frac{a}{b}$, where $a$ is 3.", "\\frac{a}{b}"),
]

# A final-answer marker wins over an intermediate box.
FINAL_MARKER = [
    (
        (
            "so $0.04 \\cdot 10,000 / 2 = \\boxed{200}$, then $\\boxed{255}$ more.\n"
            "Final Answer: The final answer is $10,455$. I hope it is correct."
        ),
        "10,455",
    ),
    ("中间结果 \\boxed{8}。\n最终答案：【12】", "12"),
    ("先得 \\boxed{8}。\n答：共有 12 个。", "12"),
    ("\\boxed{5}\n\nThe final answer is 5 apples.", "5 apples"),
    # a marker before the box, or one that points back at it, leaves the box the answer
    ("The final answer is $\\boxed{7}$.", "7"),
    ("$\\boxed{7}$ is the final answer.", "7"),
]

# Every part of a multi-part answer is found.
EVERY_PART = [
    ("$$\\boxed{(3, 3)} \\text{ for part (a) and } \\boxed{(1, 1)}$$", "(3, 3), (1, 1)"),
    ("(a) \\boxed{3}; (b) \\boxed{4}", "3, 4"),
    ("\\boxed{1} papers and \\boxed{2} bins", "1, 2"),
    ("$\\boxed{1}\\boxed{2}$", "1, 2"),
    # words that comment on a box, or say anything more, part it from the next
    ("\\boxed{1} no no no \\boxed{2}", "2"),
    ("\\boxed{3} wrong, \\boxed{4}", "4"),
    ("\\boxed{2} trips, so \\boxed{5}", "5"),
]


@pytest.mark.parametrize(
    ("solution", "gold", "correct"), NUMBER_WORDS + MULTI_PART + SPACED_AND_BARE + OPTION_LETTER
)
def test_the_verdict_reads_the_answer_as_typed(solution, gold, correct):
    assert check_answer(solution, [gold]).correct is correct


@pytest.mark.parametrize(("solution", "found"), NAMED_OBJECT + FINAL_MARKER + EVERY_PART)
def test_the_answer_found_is_the_one_stated(solution, found):
    assert find_answer(solution).text == found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("= **$64.80**", "= $64.80"),
        ("x = __5__", "x = 5"),
        ("So *x = 3*.", "So x = 3."),
        ("So _5_ apples.", "So 5 apples."),
        ("***x***", "x"),
        ("**Final Answer:** **12**", "Final Answer: 12"),
        # multiplication, powers, subscripts and escaped underscores are not emphasis
        ("2*3*4 = 24", "2*3*4 = 24"),
        ("x**2 + 1", "x**2 + 1"),
        ("my_var_name", "my_var_name"),
        (
            "\\text{D}_{\\text{e}} - \\text{D}_{\\text{w}}",
            "\\text{D}_{\\text{e}} - \\text{D}_{\\text{w}}",
        ),
        ("a \\_ b \\_ c", "a \\_ b \\_ c"),
        # inside math, `*` and `_` are LaTeX's; emphasis around the math goes
        ("$a_1 + b_2$", "$a_1 + b_2$"),
        ("**The answer is $x*y*z$**", "The answer is $x*y*z$"),
        # a bullet, and a pair split across lines, are not emphasis
        ("* item one", "* item one"),
        ("**open\nclose**", "**open\nclose**"),
    ],
)
def test_markdown_emphasis_is_typesetting(text, expected):
    assert without_emphasis(text) == expected


@pytest.mark.parametrize(
    ("solution", "gold", "found", "correct"),
    [
        (
            "Each ticket costs $32.40.\n\nTwo tickets cost 2 × 32.40 = **$64.80**",
            "64.80",
            "64.80",
            True,
        ),
        ("Each ticket costs 32.40.\n\n**Final Answer:** **$64.80**", "64.8", "64.80", True),
        ("The answer is __5__.", "5", "5", True),
        ("We solve 2x = 6.\n\nThe answer is *x = 3*.", "3", "x = 3", True),
        ("We solve 2x = 6.\n\nThe answer is *x = 4*.", "3", "x = 4", False),
    ],
)
def test_an_answer_in_emphasis_is_read_through_it(solution, gold, found, correct):
    check = check_answer(solution, [gold])
    assert (check.extracted, check.correct) == (found, correct)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("five", "5"),
        ("Five.", "5"),
        ("twenty-one", "21"),
        ("五", "5"),
        ("三百零五", "305"),
        ("five apples", "five apples"),
        ("x", "x"),
    ],
)
def test_an_answer_that_is_a_number_in_words_is_cleaned_to_digits(answer, expected):
    assert clean_answer(answer) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Step 1: Let n = 2k be even.\nStep 2: Then n is twice k.\nStep 3: Hence the claim holds.",
        "1. Let n = 2k be even.\n2. Then n is twice k.\n3. Hence the claim holds.",
        "(1) Let n = 2k be even.\n(2) Then n is twice k.\n(3) Hence the claim holds.",
        "第一步：设 n = 2k 为偶数。\n第二步：则 n 是 k 的两倍。\n第三步：所以结论成立。",
        "Step 1: n = 2k is even. Step 2: so n is twice k. Step 3: the claim holds.",
    ],
)
def test_no_step_label_is_read_as_an_answer(text):
    """The only numbers besides the labels are the 2 of `2k`: a label is not a value, neither
    the answer found nor a candidate the reference could match."""
    assert find_answer(text).text == "2"
    assert "3" not in without_step_labels(text)
    assert check_answer(text, ["3"]).correct is not True


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("We count 3 cases.\n120.", "120"),
        # one line opening with a number is no numbered list: the number is its value
        ("So the total is\n100. That is our answer.", "100"),
    ],
)
def test_a_number_that_opens_a_line_alone_keeps_it(text, found):
    assert find_answer(text).text == found


@pytest.mark.parametrize(
    ("guess", "expected"),
    [(True, "2"), (False, None)],
)
def test_a_proof_reports_only_an_answer_it_states(guess, expected):
    text = "Let n = 2k.\nThen n^2 = 4k^2 = 2(2k^2), which is even."
    assert check_answer(text, [], guess=guess).extracted == expected
    assert check_answer("So the answer is $5$.", [], guess=guess).extracted == "5"


@pytest.mark.parametrize(
    ("solution", "gold"),
    [
        ("AZYUK2A", "2"),  # a digit inside a name is not a number the text states
        ("The code is XK7.", "7"),
        ("$1 + \\frac{1}{\\mathrm{e}}$", "1 - \\frac{1}{\\mathrm{e}}"),
    ],
)
def test_a_strict_reading_refuses(solution, gold):
    assert not check_answer(solution, [gold]).correct


@pytest.mark.parametrize(
    ("formula", "expected"),
    [
        ("x = 5", ["x ", " 5"]),
        ("F_n = \\sum_{k=0}^{n-1} F_k", ["F_n ", " \\sum_{k=0}^{n-1} F_k"]),
        ("f(x=1) = 2 = 2", ["f(x=1) ", " 2 ", " 2"]),
        ("x", ["x"]),
    ],
)
def test_an_equation_is_cut_only_at_its_own_signs(formula, expected):
    assert sides(formula) == expected


def test_an_unescaped_backslash_command_is_read_back():
    """`\\f` written into JSON without escaping is a form feed (which also ends a line for
    `splitlines`): the matrix is read whole, equal to itself."""
    matrix = "$\\begin{pmatrix}-\\frac{7}{4}&-2\\\\4&\\frac{1}{4}\\end{pmatrix}$"
    broken = matrix.replace("\\frac", "\x0crac")
    assert readable(broken) == matrix
    assert check_answer(broken, [matrix]).correct is True
