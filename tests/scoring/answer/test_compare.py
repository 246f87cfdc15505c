"""The comparison pipeline: which reading decides a pair, what reaches math-verify, and the
answer check that finds a solution's answer and compares it."""

import pytest

from scoring.answer.compare import check_answer, compare_answers, is_equivalent


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("0.5", r"\frac{1}{2}", True),
        (r"\frac{1}{2}", "0.5", True),
        ("3", "x = 3", True),
        ("7425000", "7,425,000", True),
        ("[1, 2]", "[1,2]", True),
        (r"\{1, 2, 3\}", r"\{3, 2, 1\}", True),
        (["5", "-5"], "-5", True),
        ("(1,2)", "[1,2]", False),
        ("0.5", "50", False),
        ("4", "5", False),
        ("x^2+2x+1", "(x+1)^2", True),
        ("", "3", None),
        ("3", "", None),
        ("3", None, None),
    ],
)
def test_is_equivalent(gold, pred, expected):
    assert is_equivalent(gold, pred) is expected


@pytest.mark.parametrize(
    ("text", "gold", "extracted", "correct", "anchored"),
    [
        ("so x = 4.\nFinal Answer: $5$", "4", "5", False, True),
        (
            "Right. So the square root of 53 is $\\sqrt{53}$. We cannot simplify it.",
            "\\sqrt{53}",
            "\\sqrt{53}",
            True,
            False,
        ),
        ("And $\\dfrac{5}{9}$ is our answer.", "\\frac 59", "\\dfrac{5}{9}", True, False),
        (
            "The exchange rate is $1250\\text{ dollars} = 1,000,000\\text{ lire}$.",
            "1250",
            "1250\\text{ dollars}",
            True,
            False,
        ),
        ("So the total is 12 apples.", "13", "12", False, False),
        ("We are done.", "13", None, None, False),
        # a yes/no question is answered by a verdict: a number of the closing lines is none
        ("91 = 7 x 13, so 91 is not prime.", "No", "91", None, False),
        ("No, 91 = 7 x 13.", "No", "No, 91 = 7 x 13", True, False),
        # a verdict line or sentence among the closing lines is the answer to a yes/no question
        ("2/4 = 1/2\nYes.", "Yes", "Yes", True, False),
        ("1/3 ≈ 0.33\n0.5 < 0.33\nNo, 0.5 is smaller.", "Yes", "0.5", False, False),
        # "Answer:" opening a sentence marks it, as it does opening a line
        (
            "91 is not divisible by 2, 3 or 5.\nSo 91 is prime. Answer: Yes",
            "No",
            "Yes",
            False,
            True,
        ),
        # the 3 of `3x` is a coefficient, not the answer 3 (before: equal)
        ("3x = 2 - 7 = -5\nx = -5/3", "3", "x = -5/3", False, False),
        ("3x = 9, so x = 3.", "3", "3", True, False),
        # a ratio is not its last number; the listed solutions are the answer whole
        ("The ratio is 3:5.", "5", "3:5", False, False),
        ("The solutions are 2 and 3.", "2, 3", "2, 3", True, False),
        # the value a sentence rules out is not part of the answer
        ("So the answer is 7, not 8.", "7", "7", True, True),
        ("So the answer is 7, not 8.", "8", "7", False, True),
        # a fraction typed as one character
        ("The answer is 2½.", "5/2", "2½", True, True),
        # what an equation computed is not its result: 180/2.5 equals the reference 72, the
        # step's 90 does not (before: right)
        ("$\\frac{180}{2.5} = 90$\nThe average speed is $90$ km/h.", "72", "90", False, False),
        ("$$\\frac{12}{18} = \\frac{3}{4}$$", "\\frac{2}{3}", "\\frac{3}{4}", False, False),
        # a time after a marker, and a minus sign typed as U+2212
        ("答：是10:15。", "10:15", "10:15", True, True),
        ("The temperature at midnight is −7°C.", "-7", "−7", True, False),
        ("The answer is 7.", [], "7", None, True),
    ],
)
def test_check_answer(text, gold, extracted, correct, anchored):
    check = check_answer(text, gold)
    assert (check.extracted, check.correct, check.anchored) == (extracted, correct, anchored)


@pytest.mark.parametrize(
    ("problem", "extracted", "correct"),
    [
        # the answer sentence repeats the question's 8 pencils; its answer is 4 (before: 8, wrong)
        ("一支铅笔5角，买8支铅笔要多少元？", "4", True),
        # without the problem there is nothing to tell them apart: the first number, as before
        ("", "8", False),
    ],
)
def test_a_number_the_answer_sentence_repeats_from_the_problem_is_not_its_answer(
    problem, extracted, correct
):
    check = check_answer("解：0.5×8=4（元）\n答：买8支铅笔要4元。", "4", problem=problem)
    assert (check.extracted, check.correct, check.anchored) == (extracted, correct, True)


def test_tiny_numbers_are_not_equal_by_rounding():
    assert is_equivalent("\\frac{1}{2004!}", "\\frac{1}{2006!}") is False
    assert is_equivalent("\\frac{1}{2^{99}}", "\\frac{1}{2^{98}}") is False


# --- Readings decided in this process (no math-verify) ------------------------------------------


class RecordingVerifier:
    """Stands in for the math-verify pool and records what reaches it."""

    def __init__(self, verdict: bool | None = None) -> None:
        self.verdict = verdict
        self.calls: list[tuple[tuple[str, ...], str]] = []

    def outcome(self, golds, pred, timeout=None):
        self.calls.append((tuple(golds), pred))
        return self.verdict


def decided(gold, pred):
    """(verdict, reading) of a pair decided without math-verify (fails if it reached the worker)."""
    verifier = RecordingVerifier()
    result = compare_answers(gold, pred, verifier=verifier)
    assert verifier.calls == [], f"{gold!r} vs {pred!r} went to math-verify"
    return result.verdict, result.reading


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("是", "否", False),
        ("是", "是的", True),
        ("否", "不是", True),
        ("正确", "错误", False),
        ("存在", "不存在", False),
        ("对", "正确", True),
        ("Yes", "\\text{No}", False),
        ("yes", "True", True),
        ("No", "no.", True),
        ("\\text{Yes}", "No, because the sum is odd", False),
    ],
)
def test_yes_no_never_matches_its_opposite(gold, pred, expected):
    assert decided(gold, pred) == (expected, "yes_no")


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("C", "Thinking it over, the correct answer is C", True),
        ("B", "It is not A because the area is too small, so B", True),
        ("D", "The answer: D, it cannot be A or B", True),
        ("B", "B。不是 A", True),
        ("C", "réponse est C non A", True),
        ("(D) 12 apples", "D", True),
        ("(A) 12 apples", "C", False),
        ("the answer is\n(C) Cecile", "C", True),
        ("A", "\\textbf{A}", True),
        ("C", "$\\boxed{\\text{(C)}}$", True),
    ],
)
def test_option_letters(gold, pred, expected):
    assert decided(gold, pred) == (expected, "choice_letter")


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("BC", "B、C", True),  # a multiple-select answer: the same options, any separators
        ("B、C", "CB", True),
        ("ABD", "A, B and D", True),
        ("A和C", "(A)(C)", True),
        ("BC", "B", False),  # a different selection, never equal
        ("B", "B、C", False),  # before: the first letter chosen, "B" equalled "B、C"
        ("AB", "AC", False),
    ],
)
def test_multiple_select_answers_are_sets_of_options(gold, pred, expected):
    assert decided(gold, pred) == (expected, "option_set")


def test_an_angle_in_degrees_equals_it_in_radians() -> None:
    for gold, pred in (
        ("\\frac{\\pi}{6}", "30°"),
        ("45^\\circ", "\\frac{\\pi}{4}"),
        ("\\frac{2\\pi}{3}", "120^{\\circ}"),
        ("\\frac{\\pi}{6}", "30度"),
    ):
        result = compare_answers(gold, pred)
        assert (result.verdict, result.reading, result.route) == (True, "angle_units", "units")
    # another angle, or a number without a unit, is not the same angle
    assert compare_answers("\\frac{\\pi}{6}", "60°").verdict is False
    assert compare_answers("\\frac{\\pi}{6}", "30").verdict is False


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("\\ln 2", "ln2"),  # LaTeX read `ln2` as l times n times 2: unequal
        ("\\ln 2", "ln(2)"),
        ("\\frac{\\pi}{4}", "pi/4"),
        ("2\\pi", "2pi"),
        ("\\frac{\\sqrt{3}}{2}", "sqrt(3)/2"),
        ("\\sqrt{2}", "sqrt2"),
        ("\\log_2 3", "log2(3)"),
        ("\\frac{1}{2}", "sin(pi/6)"),  # before: restated as its last number, 6
        ("2\\sin x\\cos x", "sin2x"),
        ("e^{x}", "exp(x)"),
        ("5\\sqrt{2}", "5√2"),
        ("2", "∛8"),
    ],
)
def test_function_names_typed_as_plain_text_are_the_functions(gold, pred):
    assert is_equivalent(gold, pred) is True


@pytest.mark.parametrize(
    ("gold", "pred"),
    [
        ("\\ln 2", "ln3"),
        ("\\frac{\\pi}{4}", "pi/3"),
        ("\\sin x", "cos x"),
        ("\\arcsin x", "sin x"),
        ("2", "log2(8)"),
        ("5\\sqrt{2}", "5√3"),
    ],
)
def test_plain_text_functions_still_differ_when_they_differ(gold, pred):
    assert is_equivalent(gold, pred) is False


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("5", "5 cm", True),
        ("5\\text{ cm}", "5", True),
        ("10 weeks", "10", True),
        ("10\\text{ cm}^2", "10", True),
        ("64", "64 square feet", True),
        ("5厘米", "5", True),
        ("5 cm", "6 cm", False),
        ("2", "\\$2.00", True),
        ("2", "$2.00", True),
        ("1000.99", "1,000.99€", True),
        ("30", "¥30", True),
        ("\\$2.00", "\\$2.50", False),
        # a temperature's degree sign is a unit, not an angle's
        ("-7", "-7^\\circ\\text{C}", True),
        ("-7", "-7 ^{\\circ}C", True),
        ("68", "68 ℉", True),
        ("-7", "7^\\circ\\text{C}", False),
    ],
)
def test_units_and_currencies_are_not_part_of_the_value(gold, pred, expected):
    assert decided(gold, pred) == (expected, "plain_number")


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("四分之三", "3/4", True),
        ("3/4", "两人一共吃了这块蛋糕的四分之三", True),
        ("3/4", "两人一共吃了这块蛋糕的三分之一", False),
        ("20\\%", "百分之二十", True),
    ],
)
def test_fractions_in_chinese_words_are_their_values(gold, pred, expected):
    assert is_equivalent(gold, pred, timeout=10.0) is expected


@pytest.mark.parametrize(
    ("text", "gold", "expected"),
    [
        ("答：是10时15分。", "10:15", True),  # was read as 10
        ("答：他10:15到达。", "10时15分", True),
        ("答：是10时25分。", "10时15分", False),
        ("答：9点半出发。", "9:30", True),
        ("答：一共用了1小时45分。", "10:45", False),  # a duration is no clock time
    ],
)
def test_clock_times_in_chinese_are_clock_times(text, gold, expected):
    assert check_answer(text, gold, timeout=10.0).correct is expected


@pytest.mark.parametrize(
    ("text", "gold", "expected"),
    [
        ("x^2 = 4\nx = 2 or x = -2", "2", False),  # a hedge is not the answer it contains
        ("x^2 = 4\nx = 2 or x = -2", "2, -2", True),
        ("x^2 = 4\nx = 2 or x = -2", "\\pm 2", True),
        ("x = 2 or x = -2. Since x > 0,\nx = 2.", "2", True),  # the last statement decides
        ("So a = 3, b = 4.", "4", True),  # two unknowns: not a solution set
    ],
)
def test_an_unknown_given_several_values_is_one_answer(text, gold, expected):
    assert check_answer(text, gold, timeout=10.0).correct is expected


def test_a_one_line_answer_without_a_closing_expression_is_still_compared():
    assert check_answer("30^\\circ", "30").correct is True
    assert check_answer("30^\\circ", "45").correct is False


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("39.06\\%", "39.06 percent", True),
        ("39.06\\%", "39.06", True),
        ("39.06\\%", "0.3906", True),
        ("50\\%", "0.5", True),
        ("10\\%", "10", True),
        ("50", "0.5", False),
        ("0.5", "50", False),
        ("50\\%", "0.5\\%", False),
        ("28\\%", "28 percent", True),
    ],
)
def test_percent_never_rescales_a_plain_number(gold, pred, expected):
    assert decided(gold, pred) == (expected, "plain_number")


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("9.03", "9.0312", True),  # the reference states two decimals
        ("9.0312", "9.03", False),  # less precise than the reference
        ("26.32", "26.3", False),
        ("\\frac{1}{3}", "0.3333", True),
        ("\\frac{2}{3}", "0.666", True),  # truncated
        ("\\frac{1}{3}", "0.33", False),  # two significant digits state no precision
        ("0.5", "0.54", False),
        ("5", "5.001", False),
        ("142.857", "\\frac{1000}{7}", True),
        ("2.314814814815 \\times 10^{-3}", "\\frac{1}{432}", True),
    ],
)
def test_a_stated_precision_accepts_rounding(gold, pred, expected):
    assert decided(gold, pred) == (expected, "plain_number")


@pytest.mark.parametrize(
    ("gold", "pred"),
    [("40\\pi", "125.663"), ("\\sqrt{2}", "1.414"), ("\\frac{\\sqrt{3}}{2}", "0.866")],
)
def test_a_decimal_approximates_an_exact_value(gold, pred):
    assert decided(gold, pred) == (True, "approximation")


def test_an_exact_value_and_a_coarse_decimal_go_to_math_verify():
    verifier = RecordingVerifier(False)
    assert compare_answers("\\sqrt{2}", "1.4", verifier=verifier).verdict is False
    assert verifier.calls, "a reading must not refuse what it cannot read exactly"


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("3", "3.0", True),
        ("1000", "1000.00", True),
        ("7425000", "7,425,000", True),
        ("1000", "1 000.0", True),
        ("0.4", ".4", True),
        ("1 1/2", "1.5", True),
        ("2\\frac{1}{2}", "2.5", True),
        ("1000,99", "1000.99", True),  # a decimal comma
        ("-\\frac{10}{9}", "-10/9", True),
        ("4", "5", False),
    ],
)
def test_integer_decimal_and_fraction_forms(gold, pred, expected):
    assert decided(gold, pred) == (expected, "plain_number")


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        (
            "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
            "\\begin{bmatrix}1&2\\\\3&4\\end{bmatrix}",
            True,
        ),
        (
            "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
            "\\begin{pmatrix}1&2\\\\3&5\\end{pmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}",
            "\\begin{pmatrix}1&2&0\\\\3&4&0\\end{pmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}",
            "Q = \\begin{pmatrix}1&0\\\\0&\\end{pmatrix}",
            False,
        ),
        (
            "\\begin{pmatrix}\n\\frac{1}{2} & 0 \\\\\n0 & 1\n\\end{pmatrix}",
            "\\begin{pmatrix}0.5&0\\\\0&1\\end{pmatrix}",
            True,
        ),
        ("\\begin{pmatrix}2\\\\4\\end{pmatrix}", "(2, 4)", True),
        ("(2.0, 4.0)^{T}", "\\begin{bmatrix}2\\\\4\\end{bmatrix}", True),
    ],
)
def test_matrices_are_compared_entrywise(gold, pred, expected):
    assert decided(gold, pred) == (expected, "matrix")


def test_a_matrix_over_several_lines_reaches_math_verify_whole():
    verifier = RecordingVerifier()
    # an entry read neither as a number nor as the same text (2x/2): math-verify's call
    compare_answers(
        "\\begin{pmatrix}\nx & 1 \\\\\n0 & 1\n\\end{pmatrix}",
        "\\begin{pmatrix}2x/2&1\\\\0&1\\end{pmatrix}",
        verifier=verifier,
    )
    ((golds, _),) = verifier.calls
    assert "\n" not in golds[0] and "\\end{pmatrix}" in golds[0]


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("x = -1 \\text{ or } x = -9", "-9, -1", True),
        ("-1, -9", "-9", False),
        ("-9", "-1, -9", False),
        ("3；4", "4, 3", True),
        ("2、3", "2, 3", True),
        ("x=1或x=2", "2, 1", True),
        ("\\pm 2", "2, -2", True),
        ("\\pm 2", "2", False),
        ("(1, 2)", "(2, 1)", False),
        ("(1, 2)", "1, 2", True),
        ("x = 1, y = 2", "y = 2, x = 1", True),
        ("x = 1, y = 2", "x = 2, y = 1", False),
        ("x_1 = 2, x_2 = 3", "x = 3 \\text{ or } x = 2", True),
        ("\\frac{1}{3}, \\sqrt{3}", "1.732, 0.3333", True),
        ("(\\frac{3}{5}, \\frac{8}{3}]", "(0.6, 2.6667]", True),
    ],
)
def test_multi_part_answers(gold, pred, expected):
    assert decided(gold, pred) == (expected, "multi_part")


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [("20:34", "8:34 p.m.", True), ("20:34", "20:34:00", True), ("8:00", "8:00 PM", False)],
)
def test_clock_times(gold, pred, expected):
    assert decided(gold, pred) == (expected, "clock_time")


@pytest.mark.parametrize(
    ("gold", "pred", "expected"),
    [
        ("(1,2)", "[1,2]", False),  # a tuple is not an interval
        ("[1,2]", "\\{1,2\\}", False),  # an interval is not a set
        ("(1,2]", "(1, 2]", True),
        ("7:32", "7:32", True),
        ("f(x) = 2x + 3", "y = 2x + 3", True),
    ],
)
def test_forms_left_to_math_verify(gold, pred, expected):
    assert is_equivalent(gold, pred) is expected


def test_a_text_in_words_is_read_for_the_answer_it_states():
    assert decided("220", "Réponse: Janeth paiera encore 220 $ d'ici 12 mois.") == (
        True,
        "plain_number",
    )
    assert decided("13/28", "计划的比例为13/28") == (True, "plain_number")
    assert decided("6", "The remaining 6 miles are easy. Final Answer: 12") == (
        False,
        "plain_number",
    )


@pytest.mark.parametrize(
    ("text", "gold", "extracted", "correct", "anchored"),
    [
        ("They walk the remaining 6 miles.\nFinal Answer: 12", "6", "12", False, True),
        ("\\boxed{-1} and \\boxed{-9}", "-9", "-1, -9", False, True),
        ("\\boxed{-1} and \\boxed{-9}", "x=-1 \\text{ or } x=-9", "-1, -9", True, True),
        # a calculation on the way is not the stated result (178)
        (
            "Total: $52 + 24 + 44 + 48$.\nSo they have 178 fruits in total.",
            "168",
            "178",
            False,
            False,
        ),
        ("Thus \\(n = 5\\) and \\(n = 15\\).", "5, 15", "n = 5, n = 15", True, False),
        (
            "Hence the circle is \\[x^2 + y^2 = 13\\]",
            "x^2 + y^2 = 13",
            "x^2 + y^2 = 13",
            True,
            False,
        ),
        # an "Answer:" heading that opens the working marks nothing
        (
            "**Answer:**\n\nNote 3 + 4 = 7.\nThen 7 * 2 = 14.\nWe double it.\nSo 14 apples.",
            "14",
            "14",
            True,
            False,
        ),
    ],
)
def test_check_answer_reads_stated_and_multi_part_answers(text, gold, extracted, correct, anchored):
    check = check_answer(text, gold)
    assert (check.extracted, check.correct, check.anchored) == (extracted, correct, anchored)


def test_check_answer_names_the_reading_that_decided():
    assert check_answer("最终答案：【否】", "是").reading == "yes_no"
    assert (
        check_answer("\\boxed{-1} and \\boxed{-9}", "x=-1 \\text{ or } x=-9").reading
        == "multi_part"
    )
    assert check_answer("We are done.", "13").reading == ""
