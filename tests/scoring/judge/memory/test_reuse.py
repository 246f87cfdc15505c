"""What a memory's reading keeps between grades: every value it caches is keyed by what it was
computed from, so an equal memory reuses it and any change to the memory is read anew."""

from datetime import datetime

from hypothesis import given
from hypothesis import strategies as st

from scoring.judge.memory import ProblemMemory, RememberedSolution, RememberedStep, problem_key
from scoring.judge.memory.match import read_memory, remembered_signatures
from scoring.judge.memory.signature import Signature, given_numbers, signature, similarity

PROBLEM = "A box holds 6 rows of 8 eggs. 9 eggs break. How many eggs are left?"
STEPS = ["6 * 8 = 48 eggs", "48 - 9 = 39", "39 eggs are left."]


def memory(labels: list[str], day: int = 3) -> ProblemMemory:
    """A fresh memory object each call, as the store builds one per grade."""
    steps = tuple(RememberedStep(t, label) for t, label in zip(STEPS, labels, strict=True))
    return ProblemMemory(
        problem_key(PROBLEM),
        (RememberedSolution("g1", steps, datetime(2026, 5, day), "39"),),
    )


def test_an_equal_memory_built_again_reuses_its_signatures():
    given_ = given_numbers(PROBLEM)
    first = remembered_signatures(memory(["correct"] * 3), given_)
    again = remembered_signatures(memory(["correct"] * 3), given_)
    assert again is first
    assert first == (tuple(signature(t, given_) for t in STEPS),)
    assert {"48", "39"} <= first[0][1].values and "9" not in first[0][1].values


def test_a_relabelled_memory_is_read_anew():
    mine = ["8 * 6 = 48", "48 - 9 = 39"]
    accepted = read_memory(PROBLEM, mine, memory(["correct"] * 3))
    rejected = read_memory(PROBLEM, mine, memory(["correct", "incorrect", "meaningless"]))
    assert [r.accepted for r in accepted.steps] == [True, True]
    assert accepted.path == "g1"
    assert rejected.steps[1].mistake == "48 - 9 = 39" and not rejected.steps[1].accepted
    assert rejected.path is None  # no solution accepted whole


def _words(grams: frozenset[str]) -> Signature:
    return Signature(frozenset(), frozenset(), grams)


@given(
    st.frozensets(st.text(min_size=2, max_size=2), max_size=8),
    st.frozensets(st.text(min_size=2, max_size=2), max_size=8),
)
def test_wording_similarity_is_the_jaccard_index(a, b):
    expected = len(a & b) / len(a | b) if a | b else 0.0
    assert similarity(_words(a), _words(b)) == expected
