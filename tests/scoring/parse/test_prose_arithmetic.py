"""Arithmetic stated in words is read as relations and decided like written equations."""

from scoring.parse.equations import check_step, prose_relations
from scoring.parse.mathparse import parse_math
from scoring.parse.prose_arithmetic import prose_statements


def test_a_slip_in_prose_is_caught():
    check = check_step("First we divide 4 into 72 to get 19.")
    assert check.verdict == "false"
    assert "(72) / (4) = 19 is false (18)" in check.evidence


def test_the_correct_prose_version_stays_clean():
    assert check_step("First we divide 4 into 72 to get 18.").verdict == "true"
    assert check_step("Then subtract 15 from 40 to get 25.").verdict == "true"
    assert check_step("We should add $8$ to $5$ to get $13$.").verdict == "true"


def test_word_operators_with_a_result():
    assert check_step("So 6 times 7 is 41.").verdict == "false"
    assert check_step("So 6 times 7 is 42.").verdict == "true"
    assert check_step("and 9 divided by 4 equals 2.25").verdict == "true"


def test_operator_word_before_an_equals_sign_is_not_half_a_relation():
    # `7 = 42` alone would be false; the whole `6 times 7 = 42` is true
    assert check_step("so 6 times 7 = 42 pencils").verdict == "true"
    assert check_step("so 6 times 7 = 40 pencils").verdict == "false"


def test_a_share_of_a_number_and_what_it_comes_to():
    assert check_step("25% of 20 is 4.").verdict == "false"
    assert check_step("So 40% of $40 is $16.").verdict == "true"
    assert check_step("10 percent of 50 is 5").verdict == "true"
    assert check_step("Half of 30 is 16.").verdict == "false"
    assert check_step("half of 2011 is 1005.5").verdict == "true"
    assert check_step("a third of 30 = 10").verdict == "true"  # with `=`: the whole side
    # not a share that ends the arithmetic, or one inside a larger expression
    assert prose_statements("25% of 20 is 5 times the cost") == []
    assert prose_statements("more than 25% of 20 is 5") == []


def test_expression_followed_by_which_is():
    assert check_step("the count is 31 - 12 + 1, which is 20.").verdict == "true"
    assert check_step("the count is 31 - 12 + 1, which is 19.").verdict == "false"
    assert check_step("And $6 \\cdot 15$ is 95.").verdict == "false"


def test_huge_values_are_reported_briefly():
    check = check_step("And $9 ^ 200$ is 1800.")
    assert check.verdict == "false"
    assert len(check.evidence) < 80


def test_results_that_run_on_are_not_read():
    assert prose_statements("so 2 + 3 is 5x when x is 1") == []
    assert prose_statements("so 2 + 3 is 5 times the width") == []
    assert prose_statements("so 2 + 3 is 5 \\cdot 2") == []
    assert prose_statements("and 4 + 4 is 8% of the total") == []


def test_a_larger_expression_is_not_cut_in_half():
    assert prose_statements("twice 3 + 4 is 14") == []
    assert prose_statements("the product of 5 times 2 + 1 is 11") == []


def test_variables_and_relations_are_left_to_the_equation_checks():
    assert prose_statements("and $2x + 1$ is 7") == []
    assert prose_statements("and $2 + 1 = 3$ is true") == []


def test_division_with_remainder():
    assert check_step("Dividing 47 by 5 gives 9 with a remainder of 2.").verdict == "true"
    wrong = check_step("When we divide 47 by 5 we get 8 with a remainder of 2.")
    assert wrong.verdict == "false"
    # integer division is right when a remainder is mentioned
    assert check_step("Divide 47 by 5 to get 9, remainder 2.").verdict != "false"


def test_relations_carry_their_source():
    rels = prose_relations("In long division we divide 3 into 27 to get 9.")
    assert [(r.lhs, r.rhs, r.op) for r in rels] == [("(27) / (3)", "9", "=")]
    assert rels[0].source == "divide 3 into 27 to get 9"


def test_trigonometry_in_degrees():
    assert parse_math("\\cos 60^\\circ") is not None
    assert check_step("And $\\cos 60^\\circ = \\frac{1}{2}$.").verdict == "true"
    assert check_step("And $\\sin 30^\\circ = \\frac{\\sqrt{3}}{2}$.").verdict == "false"
    assert check_step("So $\\tan(45^{\\circ}) = 1$.").verdict == "true"


def test_an_operation_on_the_previous_result():
    from scoring.parse.prose_arithmetic import continued_operation

    st = continued_operation("And dividing by two gives us -4.", "-6")
    assert st is not None and (st.lhs, st.rhs) == ("(-6) / (2)", "-4")
    assert continued_operation("Then multiplying it by $5$, we get 30.", "6") is not None
    # the operation must open the step: elsewhere "it" may mean anything
    assert continued_operation("The other sum, dividing by two gives us 3.", "6") is None
    assert continued_operation("Dividing both sides by 2 gives x = 3.", "6") is None


def test_division_of_it_means_the_one_number_just_named():
    assert (
        check_step("Let's try 35. When we divide it by 2 we get 17 with a remainder of 1.").verdict
        == "true"
    )
    wrong = check_step("Let's try 35. When we divide it by 2 we get 88 with a remainder of 1.")
    assert wrong.verdict == "false" and "= 35 is false" in wrong.evidence
    # no number named before, or two of them: "it" is not resolved
    assert (
        check_step("When we divide it by 2 we get 88 with a remainder of 1.").verdict == "unknown"
    )
    assert (
        check_step("Try 35 or 49. When we divide it by 2 we get 88 with a remainder of 1.").verdict
        == "unknown"
    )
