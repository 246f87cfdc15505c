"""What identifies a step of a problem without a model: the values it computes that the problem
does not state, else the character bigrams it is written in."""

import pytest

from scoring.judge.memory.signature import (
    given_numbers,
    signature,
    similarity,
    solution_signature,
    typicality,
)

PROBLEM = "Pens cost 3 dollars and notebooks 5 dollars. Tom buys 12 pens and 7 notebooks."


def test_the_problems_numbers_and_the_trivial_ones_identify_nothing():
    given = given_numbers(PROBLEM)
    assert {"3", "5", "12", "7"} <= given
    assert {"0", "1", "2"} <= given


def test_a_step_is_identified_by_the_values_it_computes():
    given = given_numbers(PROBLEM)
    sig = signature("12 * 3 = 36 dollars", given)
    assert sig.results == {"36"} and sig.values == {"36"}
    assert "12" not in sig.values  # stated by the problem
    assert "36" in "".join(sig.grams)


def test_steps_that_compute_the_same_value_are_alike_whatever_their_wording():
    given = given_numbers(PROBLEM)
    a = signature("12 * 3 = 36", given)
    b = signature("The pens cost 3 * 12 = 36 dollars in all.", given)
    c = signature("7 * 5 = 35", given)
    assert similarity(a, b) >= 0.7  # the shared value counts for 0.7
    assert similarity(a, c) < 0.3
    assert similarity(a, a) == pytest.approx(1.0)


def test_without_values_of_their_own_the_wording_decides():
    given = given_numbers(PROBLEM)
    a = signature("设笔的总价为未知数", given)
    b = signature("设笔的总价为未知量", given)
    assert not a.values and not b.values
    assert 0.5 < similarity(a, b) < 1.0
    assert similarity(signature("", given), signature("", given)) == 0.0


def test_a_solution_signature_marks_computed_values():
    sig = solution_signature(["12 * 3 = 36", "7 * 5 = 35", "36 + 35 = 71"], PROBLEM)
    assert {"=36", "=35", "=71"} <= sig
    assert "=12" not in sig


def test_typicality_is_the_mean_similarity_to_the_others():
    a, b, c = frozenset({"x", "y"}), frozenset({"x", "y"}), frozenset({"z"})
    assert typicality([a, b, c]) == pytest.approx([0.5, 0.5, 0.0])
    assert typicality([a]) == [0.0]
    assert typicality([]) == []
