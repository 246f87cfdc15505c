"""Malformed LaTeX is a finding only when the format module is on."""

from scoring.judge.checks.malformed import find_malformed
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict


def found(steps, format_module=False):
    inp = JudgeInput("", steps, "calculation", AnswerVerdict(None, ()), format_module=format_module)
    return {(f.kind, f.step + 1) for f in find_malformed(inp)}


def test_format_module_only_when_asked():
    steps = ["$\\frac{1}{2$ of the cake", "so half is left"]
    assert ("malformed_latex", 1) not in found(steps)
    assert ("malformed_latex", 1) in found(steps, format_module=True)


def test_each_malformed_step_is_named_with_its_problems():
    steps = ["$x = \\frac{1}{2$", "fine: $x = 2$", "$\\left( x$"]
    findings = find_malformed(
        JudgeInput("", steps, "calculation", AnswerVerdict(None, ()), format_module=True)
    )
    assert [f.step for f in findings] == [0, 2]
    assert all(f.kind == "malformed_latex" and f.detail for f in findings)


def test_well_formed_steps_give_nothing():
    assert found(["$x^2 + 1 = 5$", "so $x = \\pm 2$"], format_module=True) == set()
