"""Closed arithmetic in a step: equations and chains whose sides are numbers, and arithmetic
stated in words (`scoring.parse.equations.check_step`). A false one speaks for an error ("random
number" and "random operation" slips, ReasonEval); a checked true one speaks for the step."""

from __future__ import annotations

from functools import lru_cache

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.equations import StepCheck, check_step


@lru_cache(maxsize=4096)
def step_check(step: str, problem: str) -> StepCheck:
    """`check_step` of one step text, read once however many checks ask; the problem is the
    context that may name a base the step's numerals are written in."""
    return check_step(step, context=problem)


def find_arithmetic(inp: JudgeInput) -> list[Finding]:
    """A `calculation_false` or `calculation_true` finding per step whose closed arithmetic
    was decided: the one speaks for an error, the other for the step."""
    found: list[Finding] = []
    for i, step in enumerate(inp.steps):
        check = step_check(step, inp.problem)
        if check.verdict == "false":
            found.append(Finding("calculation_false", i, check.evidence))
        elif check.verdict == "true":
            found.append(Finding("calculation_true", i, check.evidence))
    return found
