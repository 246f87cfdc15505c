"""Back-substitution of a solution's own final values into the equations it wrote earlier."""

import pytest

from scoring.judge.checks.back_substitution import back_substitute, final_values
from scoring.parse.equations import extract_relations


def run(steps):
    return back_substitute([extract_relations(s) for s in steps], steps)


def test_a_changed_coefficient_is_caught_by_the_final_value():
    steps = ["That simplifies to $7y^2 = 72$.", "So $y^2 = 36$.", "Thus $y = 6$."]
    failures = run(steps)
    assert [f.step for f in failures] == [0]
    assert "y = 6" in failures[0].detail


def test_a_linear_system_step_with_a_wrong_number():
    steps = [
        "$3p + e = 1.24$ and $5p + e = 1.82$.",
        "$5p + e - 3p - e = 1.15 - 1.24$.",
        "So $2p = 0.58$ and $p = 0.29$.",
        "Then $e = 0.37$.",
    ]
    assert [f.step for f in run(steps)] == [1]


def test_a_correct_derivation_is_left_alone():
    steps = ["$2x + 5 = 13$", "$2x = 8$", "$x = 4$", "Check: $2 \\cdot 4 + 5 = 13$."]
    assert run(steps) == []


@pytest.mark.parametrize(
    "steps",
    [
        ["If $x = 2$, then $x^2 = 4$.", "If $x = 3$, then $x^2 = 9$."],  # cases
        ["$x^2 - 5x + 6 = 0$", "$x = 2$", "$x = 3$"],  # two values: not used
        ["Suppose $y = 1$; then $2y = 3$ is not true.", "So $y = 5$."],  # tentative step
        ["$f(x) = x^2 + 1$", "$x = 3$"],  # function notation is not an equation in x
    ],
)
def test_reused_or_tentative_variables_are_not_substituted(steps):
    assert run(steps) == []


def test_final_values_ignore_tentative_steps():
    steps = ["Let's try $x = 1$.", "So $x = 4$."]
    values = final_values([extract_relations(s) for s in steps], steps)
    assert values == {"x": 4}
