"""A final answer stated before the work it depends on (swapped steps)."""

from scoring.judge.checks.early_answer import early_answer

PROBLEM = "A pen costs 3 dollars and a notebook 4 dollars. What do 6 pens and 5 notebooks cost?"
STEPS = [
    "Six pens cost $6 \\times 3 = 18$ dollars.",
    "Five notebooks cost $5 \\times 4 = 20$ dollars.",
    "Together they cost $18 + 20 = 38$ dollars.",
    "So the answer is 38.",
]


def test_a_correct_solution_in_order_stays_clean():
    assert early_answer(PROBLEM, STEPS, "38") is None


def test_the_answer_stated_before_the_steps_that_produce_it():
    swapped = [STEPS[0], "So the answer is 38.", STEPS[1], STEPS[2]]
    found = early_answer(PROBLEM, swapped, "38")
    assert found is not None and found.step == 1 and found.answer == "38"
    assert found.later == (2,)
    assert "before the work of step 3" in found.detail


def test_a_check_after_the_answer_is_not_work_it_waited_for():
    steps = [
        *STEPS[:3],
        "Let's check: 38 - 20 = 18, and 18 is the cost of the pens.",
        "Check the notebooks too: $20 / 5 = 4$.",
    ]
    assert early_answer(PROBLEM, steps, "38") is None


def test_an_answer_derived_where_it_appears_then_confirmed_another_way():
    steps = [*STEPS[:3], "Another way: one pen and one notebook cost 7, so $5 \\times 7 + 3 = 38$."]
    assert early_answer(PROBLEM, steps, "38") is None


def test_a_number_mentioned_in_passing_or_an_unclear_answer_is_not_decided():
    steps = [
        "The multiples of 19 are 19, 38, 57.",
        "Six pens cost $6 \\times 3 = 18$ dollars.",
        "The total is 38.",
    ]
    assert early_answer(PROBLEM, steps, "38") is None
    assert early_answer(PROBLEM, ["So the answer is 2.", "Then $3 + 5 = 8$."], "2") is None
    assert early_answer(PROBLEM, STEPS, None) is None
    assert (
        early_answer(PROBLEM, ["If it were 38, then $x = 1$.", "Then $9 + 5 = 14$."], "38") is None
    )
