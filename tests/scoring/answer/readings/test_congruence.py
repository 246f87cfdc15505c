"""Residue classes in their notations: congruences, worded remainders and progressions."""

import pytest

from scoring.answer.compare import compare_answers
from scoring.answer.readings.congruence import compare_congruences, residue_class


@pytest.mark.parametrize(
    ("text", "found"),
    [
        (r"p \equiv 1 \pmod{4}", (4, 1)),
        (r"$p\equiv1(\bmod4)$", (4, 1)),
        (r"x \equiv -3 \mod 4", (4, 1)),  # the least non-negative residue
        ("n ≡ 2 (mod 5)", (5, 2)),
        (r"\{ p \mid p \text{ 是素数且 } p \equiv 1 \pmod{4} \}", (4, 1)),  # a set's condition
        ("除以7余3的整数", (7, 3)),
        ("模 6 余 5", (6, 5)),
        (r"p = 4k + 1, k \in \mathbb{Z}", (4, 1)),
        ("n = 6m - 1", (6, 5)),
        (r"p \equiv 1 \pmod 4 \text{ or } p \equiv 3 \pmod 4", None),  # two classes
        (r"x \equiv 0 \pmod 1", None),  # every integer
        ("x = 4", None),
        ("y = 2x + 3", (2, 1)),  # read as a progression; compare_congruences asks for a congruence
    ],
)
def test_residue_class(text, found):
    assert residue_class(text) == found


@pytest.mark.parametrize(
    ("gold", "pred", "verdict"),
    [
        (r"p \equiv 1 \pmod{4}", r"p\equiv1(\bmod 4)", True),
        (r"p \equiv 1 \pmod{4}", r"p = 4n + 1 \text{ with } n \ge 0", True),
        (r"p \equiv 1 \pmod{4}", r"p \equiv 5 \pmod{4}", True),
        (r"p \equiv 1 \pmod{4}", r"p \equiv 3 \pmod{4}", False),
        (r"p \equiv 1 \pmod{4}", r"p \equiv 1 \pmod{8}", None),  # another modulus: not read here
        ("y = 2x + 3", "y = 2x + 1", None),  # two lines: no congruence on either side
        (r"p \equiv 1 \pmod{4}", "5", None),
    ],
)
def test_compare_congruences(gold, pred, verdict):
    assert compare_congruences(gold, pred) is verdict


def test_the_congruence_reading_decides_before_math_verify():
    found = compare_answers(
        r"$p\equiv1(\bmod4)$", r"\{\, p \in \mathbb{P} \mid p \equiv 1 \pmod{4} \,\}"
    )
    assert (found.verdict, found.reading, found.route) == (True, "congruence", "exact_value")


def test_a_reading_left_out_does_not_decide():
    """`left_out`: the calibration's way of grading its data without the readings written from
    it; the worker's readings are left out the same way."""
    gold, pred = r"p \equiv 1 \pmod{4}", r"p = 4k + 1"
    assert compare_answers(gold, pred).verdict is True
    assert compare_answers(gold, pred, left_out=frozenset({"congruence"})).verdict is False
    gold, pred = r"\arccos\frac{a}{\sqrt{4h^2 + a^2}}", r"\arctan\frac{2h}{a}"
    assert compare_answers(gold, pred).reading == "positive_values"
    found = compare_answers(gold, pred, left_out=frozenset({"positive_values"}))
    assert (found.verdict, found.reading) == (False, "math_verify")
