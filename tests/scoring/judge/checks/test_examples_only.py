"""A general claim shown only at particular values: a proof by example."""

import pytest

from scoring.judge.checks.examples_only import find_examples_only
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict

NONE = AnswerVerdict(None, ())


def found(steps, problem_type="proof", problem="Prove that n^2 + n is even for every integer n."):
    return find_examples_only(JudgeInput(problem, steps, problem_type, NONE))


@pytest.mark.parametrize(
    "steps",
    [
        [
            "For n = 1: 1 + 1 = 2, even.",
            "For n = 2: 4 + 2 = 6, even.",
            "For n = 3: 9 + 3 = 12, even.",
            "Therefore n^2 + n is always even.",
        ],
        ["当$n=1$时，$1+1=2$是偶数。", "当$n=2$时，$4+2=6$是偶数。", "所以$n^2+n$总是偶数。"],
        [
            "Take x = 2: 2x + 1 = 5 is odd.",
            "Take x = 10: 2x + 1 = 21 is odd.",
            "So 2x + 1 is odd for every x.",
        ],
        # one example, and a conclusion about any case
        [
            "Let a = 3 and b = 5.",
            "Then a + b = 8, which is even.",
            "Therefore the sum of any two odd integers is even.",
        ],
    ],
)
def test_a_claim_checked_at_particular_values_only(steps):
    result = found(steps)
    assert [(f.kind, f.step) for f in result] == [("examples_only", len(steps) - 1)]
    assert "the claim is shown only for" in result[0].detail


@pytest.mark.parametrize(
    "steps",
    [
        # a general identity about the variable
        [
            "For n = 1: 1 + 1 = 2.",
            "For n = 2: 4 + 2 = 6.",
            "In general n^2 + n = n(n + 1),",
            "a product of two consecutive integers, one of them even.",
        ],
        # an argument for any value, after examples
        [
            "For n = 1 it is 2.",
            "For n = 2 it is 6.",
            "Let n be any integer: one of n, n + 1 is even.",
            "So n(n + 1) is even.",
        ],
        # induction
        [
            "For n = 1: 1 + 1 = 2.",
            "Assume it holds for n = k: k^2 + k = 2m.",
            "Then (k+1)^2 + (k+1) = k^2 + k + 2(k + 1) = 2m + 2k + 2.",
            "So it holds for every n.",
        ],
    ],
)
def test_a_general_argument_is_not_a_proof_by_example(steps):
    assert found(steps) == []


def test_one_example_proves_a_claim_of_existence_and_claims_nothing_general():
    example = ["Take n = 2.", "2 is prime and 2 is even.", "So not every prime is odd."]
    assert found(example, problem="Prove that not every prime is odd.") == []
    assert (
        found(
            ["For n = 3: 9 + 3 = 12.", "12 is even.", "So it is even."],
            problem="Prove that 3^2 + 3 is even.",
        )
        == []
    )


def test_a_calculation_that_tries_values_is_not_a_proof():
    steps = ["For n = 1: 1 + 1 = 2.", "For n = 2: 4 + 2 = 6.", "The answer is 6."]
    assert found(steps, "calculation", "Compute n^2 + n for n = 2.") == []
