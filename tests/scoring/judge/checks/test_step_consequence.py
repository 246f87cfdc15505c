"""Equations derived in one step (or right after the previous one) must share a root with it."""

from scoring.judge.checks.step_consequence import broken_continuation, broken_derivations
from scoring.parse.equations import extract_relations


def broken(step):
    return broken_derivations(step, extract_relations(step))


def test_a_changed_number_breaks_the_derivation():
    found = broken("Dividing by 5, $5z^2 = 80$ gives $z^2 = 18$.")
    assert len(found) == 1
    assert found[0].variable == "z"
    assert "z^2 = 18 does not follow from 5z^2 = 80" in found[0].detail


def test_the_correct_derivation_stays_clean():
    assert broken("Dividing by 5, $5z^2 = 80$ gives $z^2 = 16$, so $z = 4$.") == []
    assert broken("$3w + 2 = 17 \\Rightarrow 3w = 15 \\Rightarrow w = 5$") == []


def test_a_changed_operator_breaks_the_derivation():
    assert broken("We know $t^2 - t - 6 = 0$, so $t^2 = t + 5$.") != []
    assert broken("We know $t^2 - t - 6 = 0$, so $t^2 = t - 6$.") == []  # no real root: undecided
    assert broken("We know $t^2 - t - 6 = 0$, so $t^2 = t + 6$.") == []


def test_one_root_of_several_is_enough():
    assert broken("Factoring, $(u-2)(u+5) = 0$ gives $u = 2$.") == []
    assert broken("Since $(u-4)^2(u+1) = 0$ we get $u = 4$.") == []  # a double root


def test_case_analyses_and_listings_stay_clean():
    assert broken("If $k = 0$ the sum is empty; if $k = 1$ it has one term.") == []
    assert broken("So $k - 3 = 0$ or $k + 2 = 0$.") == []
    assert broken("The factors give $k - 3 = 0$ and $k + 2 = 0$.") == []


def test_a_value_is_not_a_premise():
    # `n = 3` then `2n = 7` is a new statement, not something derived from `n = 3`
    assert broken("Take $n = 3$, then $2n = 7$ has no integer solution.") == []


def test_rounding_to_the_shown_digits_is_tolerated():
    assert broken("From $r^2 = 2$ we get $r = 1.41$.") == []
    assert broken("From $r^2 = 2$ we get $r = 1.52$.") != []


def test_links_of_one_chain_are_not_compared():
    step = "$|2M| = 2^3|M| = 2^3 \\cdot 5$"
    assert broken(step) == []


def test_indexed_names_are_not_one_unknown():
    assert broken("$a_1 + 1 = 4$ so $a_1 = 5$") == []


def test_identities_and_function_notation_are_skipped():
    assert broken("$(v+1)^2 = v^2 + 2v + 1$, so $v^2 = 9$.") == []
    assert broken("$f(x) = x + 1$, so $f(x) = 3$ gives $x = 2$.") == []


def test_continuation_across_steps():
    prev, step = "Subtracting, $2q = 64$.", "So $q = 31$."
    found = broken_continuation(prev, extract_relations(prev), step, extract_relations(step))
    assert found is not None and "q = 31 does not follow from 2q = 64" in found.detail
    ok = "So $q = 32$."
    assert broken_continuation(prev, extract_relations(prev), ok, extract_relations(ok)) is None


def test_continuation_leaves_tentative_steps_alone():
    prev, step = "Suppose $2q = 64$.", "Then try $q = 31$."
    assert broken_continuation(prev, extract_relations(prev), step, extract_relations(step)) is None


def test_pathological_input_is_bounded():
    step = "$x^{x^{x^{x}}} = 10^{300}$ so $x = 9^{9^{9}}$"
    assert isinstance(broken(step), list)


def test_repeating_decimals_are_exact():
    from scoring.parse.mathparse import parse_math

    assert str(parse_math("0.272727...")) == "27/99"
    assert str(parse_math("1.8333...")) == "165/90"  # 1 + 8/10 + 3/90
    assert parse_math("0.1234...") is None  # no period shown: not a number we can read
    prev, ok, bad = "Let $w = 0.444...$", "Then $10w = 4.444...$", "Then $10w = 3.444...$"
    assert broken_continuation(prev, extract_relations(prev), ok, extract_relations(ok)) is None
    assert (
        broken_continuation(prev, extract_relations(prev), bad, extract_relations(bad)) is not None
    )


def test_a_computation_and_the_value_it_gives():
    prev = "We just have to solve the equation y=2000*0.0035."
    ok, bad = "So y=$7$.", "So y=$1999.9965$ then."
    assert extract_relations(ok)[0].rhs == "7"  # `y=$7$` is one relation
    assert broken_continuation(prev, extract_relations(prev), ok, extract_relations(ok)) is None
    wrong = "We just have to solve the equation y=2000-0.0035."
    assert (
        broken_continuation(wrong, extract_relations(wrong), ok, extract_relations(ok)) is not None
    )
    assert (
        broken_continuation(prev, extract_relations(prev), bad, extract_relations(bad)) is not None
    )


def test_currency_is_not_merged_into_a_relation():
    assert extract_relations("the cost=$5 and the tax=$3 in total") == []


ROOTS = (
    "The two solutions are: \\[ x = \\frac{-4 + 2}{2} = -1 \\] \\[ x = \\frac{-4 - 2}{2} = -3 \\]"
)


def test_the_roots_a_formula_gives_are_listed_not_derived():
    assert broken(ROOTS) == []
    # a computation followed by the value it should give is still a derivation
    assert broken("So $y = \\frac{9 + 3}{2}$, which gives $y = 7$.") != []


def test_a_step_may_continue_from_any_root_the_previous_step_lists():
    def cont(step):
        return broken_continuation(ROOTS, extract_relations(ROOTS), step, extract_relations(step))

    assert cont("We keep the first one: \\[ x = -1 \\]") is None
    assert cont("We keep the second one: \\[ x = -3 \\]") is None
    assert cont("So \\[ x = -2 \\]") is not None  # neither root
