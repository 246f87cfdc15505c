"""Copies that differ from all the others in one number or operator: soft evidence of a change."""

from scoring.judge.checks.odd_copy import odd_copies

PROBLEM = "Find the sum of the multiples of 9 between 100 and 300."


def test_a_correct_solution_that_copies_the_problem_stays_clean():
    steps = [
        "The multiples of 9 between 100 and 300 start at 108 and end at 297.",
        "There are $(297 - 108) / 9 + 1 = 22$ of them.",
        "Their sum is $22 \\cdot (108 + 297) / 2 = 4455$.",
    ]
    assert odd_copies(PROBLEM, steps) == [[], [], []]


def test_a_changed_number_in_a_copy_is_odd():
    steps = [
        "We need the multiples of 9 between 100 and 250.",
        "The multiples of 9 between 100 and 300 start at 108 and end at 297.",
    ]
    found = odd_copies(PROBLEM, steps)
    assert found[1] == []
    assert [(c.step, c.found, c.expected, c.support) for c in found[0]] == [(0, "250", "300", 2)]
    assert "300" in found[0][0].detail


def test_a_changed_operator_in_a_copy_is_odd():
    steps = [
        "The first sentence gives $7a = 2b + c$.",
        "So we have $7a = 2b ^ c$.",
        "Substituting into $7a = 2b + c$ gives $c = 7a - 2b$.",
    ]
    found = odd_copies("", steps)
    assert [(c.step, c.found, c.expected) for c in found[1]] == [(1, "^", "+")]
    assert found[0] == [] and found[2] == []


def test_cases_tried_one_by_one_are_a_family_not_an_odd_copy():
    steps = [
        "When we divide 25 by 3 we get 8 with a remainder of 1.",
        "When we divide 35 by 3 we get 11 with a remainder of 2.",
        "When we divide 49 by 3 we get 16 with a remainder of 1.",
    ]
    assert odd_copies("", steps) == [[], [], []]


def test_a_number_used_elsewhere_or_a_sign_flip_is_not_odd():
    # 7 appears in step 3 as well, so writing it is no invention; + versus - is ordinary algebra
    steps = [
        "Here $x^2 + 5x + 6 = 0$.",
        "Compare $x^2 + 5x - 6 = 0$ and $x^2 + 7x + 6 = 0$.",
        "Then -7 is not a root.",
        "Again $x^2 + 5x + 6 = 0$.",
    ]
    assert odd_copies("Solve $x^2 + 5x + 6 = 0$.", steps) == [[], [], [], []]
    steps[2] = "Then -2 is not a root."
    assert [c.found for c in odd_copies("Solve $x^2 + 5x + 6 = 0$.", steps)[1]] == ["7"]


def test_a_lone_copy_has_too_little_support():
    steps = ["Between 100 and 250 there are many.", "Nothing else here."]
    assert odd_copies("Count between 100 and 300 inclusive.", steps) == [[], []]


def test_a_very_long_solution_is_not_decided():
    from scoring.judge.checks.odd_copy import MAX_TOKENS, MAX_TOTAL_TOKENS

    steps = [
        "We need the multiples of 9 between 100 and 250.",
        "The multiples of 9 between 100 and 300 start at 108 and end at 297.",
    ]
    assert odd_copies(PROBLEM, steps)[0]
    filler = [" ".join(["and so on"] * (MAX_TOKENS // 3))] * (MAX_TOTAL_TOKENS // MAX_TOKENS + 1)
    assert odd_copies(PROBLEM, [*steps, *filler]) == [[] for _ in range(2 + len(filler))]
