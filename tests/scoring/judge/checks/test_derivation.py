"""Steps that must agree with what they derive from: equations within a step, the step before,
an operation stated in words on the previous result, and an announced rewrite."""

import pytest

from scoring.judge.checks.derivation import find_derivations
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict


def found(steps):
    inp = JudgeInput("", steps, "calculation", AnswerVerdict(None, ()))
    return [(f.kind, f.step) for f in find_derivations(inp)]


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (
            ["Their total is $8 + 14 = 22$.", "And dividing by two gives us 12."],
            ("continuation", 1),
        ),
        (["The area is $(b+3)(b-1)$.", "Expanding, we get $b^2 + 2b + 3$."], ("rewrite", 1)),
        (["$2x + 3 = 11$, so $2x = 9$."], ("derivation", 0)),
    ],
)
def test_each_kind_on_its_own_case(steps, expected):
    assert expected in found(steps)


@pytest.mark.parametrize(
    "steps",
    [
        ["Their total is $8 + 14 = 22$.", "And dividing by two gives us 11."],
        ["The area is $(b+3)(b-1)$.", "Expanding, we get $b^2 + 2b - 3$."],
        ["$2x + 3 = 11$, so $2x = 8$.", "Thus $x = 4$."],
        ["Let x be the width.", "The length is twice the width."],
    ],
)
def test_the_correct_twin_gives_nothing(steps):
    assert found(steps) == []


def test_the_first_step_has_nothing_before_it():
    assert found(["And dividing by two gives us 12."]) == []


def test_a_continuation_names_the_previous_result():
    inp = JudgeInput(
        "",
        ["Their total is $8 + 14 = 22$.", "And dividing by two gives us 12."],
        "calculation",
        AnswerVerdict(None, ()),
    )
    [finding] = find_derivations(inp)
    assert "22" in finding.detail
