"""Work shared between checks (memoised parses and readings) and the root search's evaluator:
each cache is bounded, keyed on everything its answer depends on, and gives what the uncached
computation gives; callers can not change what it hands to the next caller."""

from fractions import Fraction

import pytest
import sympy
from sympy.parsing.sympy_parser import parse_expr

from scoring.judge.checks.unexplained import unexplained_numbers
from scoring.parse import equations, mathparse, prose_arithmetic, tentative
from scoring.parse.equations import Relation, check_relation, definitions
from scoring.parse.mathparse import parse_math
from scoring.parse.numeric import Unevaluable, evaluate, evaluator
from scoring.parse.prose_arithmetic import prose_statements
from scoring.parse.step_context import EXACT, Reading
from scoring.parse.tentative import is_tentative

CACHES = [
    tentative.is_tentative,
    mathparse.parse_math,
    mathparse._parse_code,
    equations._definitions,
    equations._check_closed,
    prose_arithmetic._statements,
]


@pytest.mark.parametrize("cached", CACHES, ids=lambda f: f.__qualname__)
def test_every_cache_is_bounded(cached):
    assert cached.cache_info().maxsize is not None


def test_tentative_is_answered_per_text():
    assert is_tentative("If x = 2, then y = 5.")
    assert not is_tentative("So x = 2 and y = 5.")
    assert is_tentative("If x = 2, then y = 5.")  # a cached answer for one text only


def test_texts_that_convert_alike_share_a_parse_and_integers_read_as_sympy_reads_them():
    assert parse_math("12,000") is parse_math("12000")
    for code in ("53", "0", "12345678901234567890"):
        assert parse_math(code) == parse_expr(code) and type(parse_math(code)) is type(
            parse_expr(code)
        )
    # not a bare integer: the parser's own reading (implicit multiplication) still decides
    assert parse_math("007") != sympy.Integer(7)
    assert parse_math("2 + 3") != parse_math("2 + 4")


def test_definitions_follow_their_relations_and_hand_out_copies():
    first = [Relation("x", "3", "=", "x = 3")]
    values = definitions(first)
    assert values == {"x": 3}
    values["x"] = Fraction(99)
    assert definitions(first) == {"x": 3}
    assert definitions([Relation("x", "4", "=", "x = 4")]) == {"x": 4}
    assert definitions([*first, Relation("y", "x + 1", "=", "y = x + 1")]) == {"x": 3, "y": 4}


def test_a_relation_is_decided_per_reading_and_values_are_never_cached():
    rel = Relation("1000 / 3", "333", "=", "1000 / 3 = 333")
    assert check_relation(rel).verdict == "false"
    assert check_relation(rel, reading=Reading(counting=True)).verdict == "true"
    assert check_relation(rel, reading=EXACT).verdict == "false"
    with_x = Relation("2 x", "6", "=", "2x = 6")
    assert check_relation(with_x).verdict == "unknown"
    assert check_relation(with_x, {"x": Fraction(3)}).verdict == "true"
    assert check_relation(with_x, {"x": Fraction(4)}).verdict == "false"


def test_prose_statements_hand_out_a_fresh_list():
    step = "Divide 54 by 6 to get 9."
    found = prose_statements(step)
    assert found and found[0].rhs == "9"
    found.clear()
    assert prose_statements(step) and prose_statements(step)[0].rhs == "9"


@pytest.mark.parametrize(
    "text",
    [
        "7 x^2 - 72",
        "\\frac{x + 1}{x - 2} + \\sqrt{2}",
        "2^{x} - 8",
        "\\sin(x) + 3!",
        "|x - 5| \\cdot 10^{3}",
        "x",
    ],
)
def test_the_evaluator_gives_what_evaluate_gives(text):
    expr = parse_math(text)
    at = evaluator(expr, "x")
    for x in (Fraction(-3), Fraction(0), Fraction(1, 3), Fraction(2), Fraction(7.25)):
        try:
            expected = evaluate(expr, {"x": x})
        except Unevaluable:
            with pytest.raises(Unevaluable):
                at(x)
            continue
        assert at(x) == expected and type(at(x)) is type(expected)


def test_a_part_that_cannot_be_evaluated_fails_at_every_point():
    for text in ("x + y", "x + \\frac{1}{0}", "x + (10^{9})!"):
        at = evaluator(parse_math(text), "x")
        for x in (Fraction(1), Fraction(2)):
            with pytest.raises(Unevaluable):
                at(x)


def test_a_number_computed_from_an_earlier_one_of_the_same_step_is_explained():
    problem = "A box holds 19 red and 26 blue marbles."
    # 45 is one operation on the problem's numbers; 47 is 45 + 2 (2 is always known)
    assert unexplained_numbers(problem, ["There are 45 marbles, and with two more, 47."]) == [[]]
    assert unexplained_numbers(problem, ["With two more, 47."]) == [["47"]]
    # 3.14159 is no operation on the pool, and 4.14159 only one on a number written before it
    assert unexplained_numbers(problem, ["Take 3.14159 and 4.14159."]) == [["3.14159"]]
