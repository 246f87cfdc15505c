"""Where a solution states its final answer: marked forms first (each marker family, the last one
winning), then guesses among the closing lines, marked unanchored."""

import pytest

from scoring.answer.compare import check_answer
from scoring.answer.extract import (
    FoundAnswer,
    answer_candidates,
    extract_answer,
    find_answer,
    is_computation,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (r"so $x = \boxed{\frac{1}{2}}$.", r"\frac{1}{2}"),
        (r"first \boxed{3}, corrected: \boxed{\{1, \{2\}\}}", r"\{1, \{2\}\}"),
        (r"\boxed{\frac{\sqrt{3}}{2}} and then \fbox{7}", "7"),
        ("所以 x = 6。\n最终答案：【6】", "6"),
        ("最终答案:【$\\frac{125}{72}$】", r"\frac{125}{72}"),
        ("答案：【(1,1,1) , (2,2,2)】", "(1,1,1) , (2,2,2)"),
        ("Final Answer: The final answer is $\\frac{5}{3}$. I hope it is correct.", r"\frac{5}{3}"),
        ("Step 3: done.\n\n# Answer\n\n216", "216"),
        ("Adding up, the answer is 29.", "29"),
        # a marker that closes its sentence marks what the sentence stated before it
        ("Hence $f(3)=-4$, which is the final answer.\nI checked it in 2 ways.", "-4"),
        # ... and beats an earlier "the answer is" that named the quantity, not its value
        (
            "We need $g(2)$, so the answer is $g(2)$.\nWorking it out, $g(2)=11$; that is the final answer.",
            "11",
        ),
        ("The sum is 12, which is the final answer.", "12"),
        ("Let us now find the final answer.\nWe get 7 apples.", "7"),  # it states no value
        ("She pays 5 * 4 = 20 dollars.\n#### 20", "20"),
        ("所以答案是 \\(12\\)。", "12"),
        ("The total cost is $3 \\times 4 = 12$", "12"),
        ("We get 3 apples and then 17 more.", "17"),
        ("", None),
        ("   \n ", None),
        ("no numbers at all", None),
    ],
)
def test_extract_answer(text, expected):
    assert extract_answer(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("so $x = \\boxed{-1}$ and $x = \\boxed{-9}$.", "-1, -9"),
        ("\\boxed{3} and \\boxed{4}", "3, 4"),
        ("\\[ \\boxed{(2, 2)} \\quad \\text{and} \\quad \\boxed{(6, 2)} \\]", "(2, 2), (6, 2)"),
        ("\\( y_1 = \\boxed{3} \\) and \\( y_2 = \\boxed{5} \\)", "3, 5"),
        ("\\boxed{1}, \\boxed{2}, \\boxed{3}", "1, 2, 3"),
        ("first \\boxed{3}, but that is wrong: \\boxed{4}", "4"),
        ("\\boxed{2} trips, so \\boxed{5}", "5"),
    ],
)
def test_several_boxes_state_one_answer_when_only_connectives_separate_them(text, expected):
    assert extract_answer(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("They walk the remaining 6 miles.\nFinal Answer: 12", "12"),
        ("So she has 6 apples left.\n**Answer:** 9", "9"),
        ("So she has 6 apples left.\nAnswer: 9 apples", "9 apples"),
        (
            "**Final Answer**: The probability that both are red is \\(\\frac{1}{4}\\).",
            "\\frac{1}{4}",
        ),
        ("Final Answer: The largest $n$ is 34.", "34"),
        ("前面算出 6 个。\n答：一共有 30 个苹果。", "30"),
        ("答案：每份是 (\\frac{2}{5}) 吨。", "\\frac{2}{5}"),
        ("The answer is x^2 + 1.", "x^2 + 1"),
    ],
)
def test_a_stated_answer_beats_the_numbers_in_the_prose(text, expected):
    assert extract_answer(text) == expected


@pytest.mark.parametrize(
    ("text", "expected", "anchored"),
    [
        # each marker family marks the answer
        ("We add them: \\boxed{15}", "15", True),
        ("最终答案：【7】", "7", True),
        ("Final Answer: 42", "42", True),
        # 最终答案 marks an answer as "Final Answer" does, with or without 【】
        ("由上，x = 2。\n最终答案：$\\frac{1}{2}$", "\\frac{1}{2}", True),
        ("最终答案是 $x + 1$。", "x + 1", True),
        ("所以集合为所求。最终答案：\\[\\{ n \\mid n > 3 \\}\\]", "\\{ n \\mid n > 3 \\}", True),
        ("We are done.\n# Answer\n\n8", "8", True),
        ("Therefore the answer is 11.", "11", True),
        ("Réponse : 5", "5", True),
        ("所以答案为 9。", "9", True),
        ("The total is 4 + 5.\n#### 9", "9", True),
        # a final-answer marker after the last box states the answer; the box was a step
        ("\\boxed{3}\nFinal Answer: 4", "4", True),
        # ... unless it states no value, or comes before the box
        ("\\boxed{3}\nThe final answer is the boxed one.", "3", True),
        ("Final Answer: \\boxed{3}", "3", True),
        # no marker: the right-hand side of the last line's equation, else the last number
        ("So we get $x = 17$", "17", False),
        ("There were 3 boxes with 12 pens", "12", False),
        ("Nothing to report.", None, False),
        ("", None, False),
    ],
)
def test_find_answer_says_whether_the_answer_was_marked(text, expected, anchored):
    assert find_answer(text) == FoundAnswer(expected, anchored)


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("52 + 24 + 44", True),  # numbers joined by arithmetic: a calculation on the way
        ("3 \\times 4", True),
        ("\\frac{33 \\div 33}{663 \\div 33}", True),
        ("1/21", False),  # a single fraction is a value
        ("178", False),
        ("x + 1", False),  # a formula with a variable is a result
    ],
)
def test_a_computation_is_not_a_result(expr, expected):
    assert is_computation(expr) is expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # each side of the last equation first, then the whole equation
        ("So $a = 2 + 3 = 5$.", ["5", "a", "a = 2 + 3 = 5"]),
        # parts stated together come first; numbers in the prose after the formulas
        ("Thus $x = 1$ and $x = 2$, 2 roots.", ["x = 1, x = 2", "2", "x", "x = 2", "1", "x = 1"]),
        # only the closing lines are read
        ("The answer may be 5.\nWe continue.\nIt is 6.\nDone.", ["6"]),
    ],
)
def test_answer_candidates_come_from_the_closing_lines(text, expected):
    assert answer_candidates(text) == expected


@pytest.mark.parametrize(
    ("text", "expected", "anchored"),
    [
        # an unmarked closing line that enumerates its answers states all of them
        ("由题意可得。\n综上，(1)3；(2)4", "(1)3；(2)4", False),
        ("所以答案：(1) 是 (2) 5", "(1) 是 (2) 5", False),
        ("Final answer: (1) yes (2) 5", "(1) yes (2) 5", True),
        # a verdict word after a marker is one part of the answer, the value another
        ("答案是：不是；5。", "不是；5", True),
        ("The answer is no, because 3 > 2.", "no, because 3 > 2", True),
        ("The answer is 12.", "12", True),
        ("由(1)(2)得 x=3", "3", False),  # cited equations are not the answer's parts
        # math spans joined by words keep their delimiters (else the words sit inside the math)
        ("最终答案：【$x<1$ 或 $x>2$】", "$x<1$ 或 $x>2$", True),
    ],
)
def test_answers_of_several_parts_are_found_whole(text, expected, anchored):
    assert find_answer(text) == FoundAnswer(expected, anchored)


def test_an_enumerated_closing_line_is_the_only_candidate():
    """A part of the answer alone is not the answer: `5` must not match `不是;5` when the
    solution says `是` for the first question."""
    assert answer_candidates("所以 (1) 是 (2) 5") == ["(1) 是 (2) 5"]
    assert check_answer("所以 (1) 是 (2) 5", "不是;5").correct is False
    assert check_answer("所以 (1) 是 (2) 5", "是;5").correct is True


@pytest.mark.parametrize(
    ("text", "gold", "extracted", "correct"),
    [
        # an unmarked relation in plain text is read whole, not as its last number
        ("Factor: (x-2)(x-3)=0.\nSo x = 2 or x = 3.", "2, 3", "x = 2 or x = 3", True),
        ("Factor: (x-1)(x-6)=0.\nSo x = 1 or x = 6.", "2, 3", "x = 1 or x = 6", False),
        ("所以 1<a<2。", "(1,2)", "1<a<2", True),
        ("所以1<a<2。", "2", "1<a<2", False),  # a condition is not its bound
        ("So 14 apples.", "14", "14", True),  # no relation: the number, as before
    ],
)
def test_an_unmarked_relation_is_read_whole(text, gold, extracted, correct):
    check = check_answer(text, gold)
    assert (check.extracted, check.correct, check.anchored) == (extracted, correct, False)


@pytest.mark.parametrize(
    ("text", "extracted"),
    [
        # a sentence after a marker states an interval or a condition written without delimiters
        # whole, not as its first number
        ("答：a的取值范围是[1,2)。", "[1,2)"),
        ("答：所求范围为(1,+∞)", "(1,+∞)"),
        ("答：范围是(-∞,1)∪(2,+∞)", "(-∞,1)∪(2,+∞)"),
        ("答：a的取值范围是 a>2", "a>2"),
        ("答：a的取值范围是-1≤a<3", "-1≤a<3"),
        ("The answer is the interval [1,2).", "[1,2)"),
        ("答：共有12个。", "12"),  # no formula: the number, as before
        # parts that each state one number answer a question asked in parts
        ("答：面积40平方厘米，周长26厘米。", "40, 26"),
        ("The answer is: Janeth will pay 220 $ in 12 months", "220"),  # one part: its first number
        ("答：共有3种，分别是红、黄、蓝。", "3"),  # a part without a number: the first number
    ],
)
def test_a_formula_written_in_prose_is_the_stated_answer(text, extracted):
    assert find_answer(text) == FoundAnswer(extracted, True)


@pytest.mark.parametrize(
    ("text", "gold", "correct"),
    [
        ("答：a的取值范围是[1,2)。", "(1,2)", False),  # an end point in or out (was "1,2": equal)
        ("答：a的取值范围是(1,2)。", "(1,2)", True),
        ("答：所求范围为(1,+∞)", r"(1,+\infty)", True),  # ∞ typed as a character
        ("答：范围是(-∞,1)∪(2,+∞)", "x<1或x>2", True),
    ],
)
def test_intervals_written_in_prose_are_compared_as_intervals(text, gold, correct):
    assert check_answer(text, gold).correct is correct


@pytest.mark.parametrize(
    ("text", "candidates"),
    [
        # operands and coefficients written in plain text are not results
        ("3x = 2 - 7 = -5\nx = -5/3", ["x = -5/3", "-5/3", "-5"]),
        ("speed = 120 / 2 = 50 km/h", ["50"]),
        ("the result is -3.", ["-3"]),
        # a letter the text never writes alone is a unit, not a variable
        ("The rope is 5m long.", ["5"]),
        ("Tom has 6 apples.", ["6"]),
        # a bracket opens a value (a point, a pair), not an operation
        ("So the point where they meet is (5,7).\nDone.", ["5,7"]),
        # a value written in two numbers is one: a time, a ratio, a mixed number
        ("3:45 + 30 minutes = 4:15\nIt ends at 4:15 pm.", ["4:15 pm", "4:15"]),
        ("The ratio is 3:5.", ["3:5"]),
        ("Step 2: 15 apples", ["15"]),  # a label, not a ratio, and no candidate
        ("The perimeter is 8 1/2 cm.", ["8 1/2"]),
        # a closing sentence listing one number per part lists the answer
        ("(x - 2)(x - 3) = 0\nThe solutions are 2 and 3.", ["2, 3", "3", "2", "0"]),
    ],
)
def test_unmarked_candidates_are_results_not_operands(text, candidates):
    assert answer_candidates(text) == candidates
