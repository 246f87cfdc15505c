"""Step numbers follow a step inserted before them, in every form a report writes them."""

from __future__ import annotations

import pytest

from scoring.judge.stripping import AddressedPiece
from scoring.score.addressed import placement, renumber

SHIFTED = {1: 1, 2: 3, 3: 4, 4: 5, 7: 9}  # a step inserted after step 1, another after step 4


@pytest.mark.parametrize(
    ("text", "renumbered"),
    [
        ("One error, in step 2.", "One error, in step 3."),
        (
            "Later work (steps 2-4 and 7) builds on it.",
            "Later work (steps 3-5 and 9) builds on it.",
        ),
        ("Errors in steps 1-2.", "Errors in steps 1 and 3."),  # a run broken by the inserted step
        (
            "Step 3: judged correct; uses the result of step 2",
            ("Step 4: judged correct; uses the result of step 3"),
        ),
        (
            "matches reference step 3 and Reference step 2",
            ("matches reference step 3 and Reference step 2"),
        ),
        ("第2-4、7步有错误。", "第3-5、9步有错误。"),
        ("第1-2步建立在错误结果之上", "第1、3步建立在错误结果之上"),
        ("4步中有2步无法核对", "4步中有2步无法核对"),  # counts, not step numbers
    ],
)
def test_step_numbers_are_renumbered(text, renumbered):
    assert renumber(text, lambda i: SHIFTED.get(i, i)) == renumbered


def test_a_piece_goes_after_the_step_it_followed():
    graded = "a = 1\nb = 2\nc = 3"
    pieces = [AddressedPiece("note", "r", at) for at in (0, 6, 9, len(graded))]
    assert placement(graded, ["a = 1", "b = 2", "c = 3"], pieces) == [0, 1, 2, 3]
