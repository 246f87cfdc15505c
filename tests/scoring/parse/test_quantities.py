"""Quantities and offline step dependencies (Tree-of-Error, docs/architecture.md 4.4)."""

from __future__ import annotations

import pytest

from scoring.parse.quantities import dependencies, extract_quantities


@pytest.mark.parametrize(
    ("step", "produced", "used"),
    [
        ("8(3)^3 = 8(27) = 216", {"216"}, {"8", "3", "27", "216"}),
        ("1,000 + 24 = 1,024", {"1024"}, {"1000", "24", "1024"}),
        (r"$x = \frac{15}{8}$", {"1.875", "x"}, {"15", "8", "1.875", "x"}),
        ("$p = 0.50$", {"0.5", "p"}, {"0.5", "p"}),
        (r"所以 \(x = 3 \times 4 = 12\)", {"12", "x"}, {"3", "4", "12", "x"}),
        ("Let $p$ be the price of a pencil.", {"p"}, {"p"}),
        ("So the price of a pencil is 29 cents.", {"29"}, {"29"}),
        ("最终答案：【110】", set(), {"110"}),
        ("$2p = 0.58$", {"0.58"}, {"2", "0.58", "p"}),
        ("No numbers here.", set(), set()),
    ],
)
def test_extract_quantities(step: str, produced: set[str], used: set[str]) -> None:
    q = extract_quantities(step)
    assert set(q.produced) == produced
    assert set(q.used) == used


PROBLEM = (
    r"Three pencils and a jumbo eraser cost $\$1.24$. Five pencils and a jumbo eraser cost "
    r"$\$1.82$. In cents, what is the cost of a pencil?"
)
STEPS = [
    "Let $p$ be the price of a pencil and $e$ the price of the eraser.",
    "We have $3p+e=1.24$ and $5p+e=1.82$.",
    "Subtracting, $2p = 1.82 - 1.24 = 0.58$, so $p = 0.29$.",
    r"In cents that is $0.29 \times 100 = 29$.",
]


def test_dependencies_of_a_four_step_solution() -> None:
    # step 1 uses p (step 0); 1.24 and 1.82 are given in the problem, so they link nothing;
    # step 2 uses p again (most recent producer: still step 0); step 3 uses 0.29 from step 2
    assert dependencies(STEPS, PROBLEM) == [[], [0], [0], [2]]


def test_problem_numbers_and_trivial_numbers_do_not_link() -> None:
    steps = [
        "$3 + 4 = 7$",
        "Then $7 \\cdot 2 = 14$ and $14 - 1 = 13$.",
        "Also $7 - 5 = 2$.",
        "$2 + 1 = 3$",
    ]
    assert dependencies(steps, "Add 3 and 4.") == [[], [0], [0], []]
    assert dependencies(steps, "Start from 7.") == [[], [], [], []]


def test_most_recent_producer_wins() -> None:
    steps = ["$x = 4$", "$x = 5$", "$2x = 10$"]
    assert dependencies(steps) == [[], [0], [1]]


def test_dependencies_never_raise_on_odd_input() -> None:
    steps = ["", "$" * 50, r"\frac{" * 200, "x" * 5000]
    assert dependencies(steps, "") == [[], [], [], []]
