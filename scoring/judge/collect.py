"""Run every check on one solution and gather what they found.

Each check runs through a `scoring.judge.guard.Guard`: one that raises is left out of this grade and
named (`judge.<check>`) in `Evidence.failed_checks` and in the guard's failures. One unreadable
step must not take a whole grade (or a benchmark run) down, and the report says which check is
missing instead of scoring silently without it.
"""

from __future__ import annotations

from scoring.judge.checks import CHECKS, Check
from scoring.judge.findings import Evidence, Finding
from scoring.judge.guard import Guard, failed_names
from scoring.judge.input import JudgeInput
from scoring.parse.quantities import dependencies


def collect_findings(
    inp: JudgeInput, checks: dict[str, Check] | None = None, guard: Guard | None = None
) -> Evidence:
    """The findings of every check (in check order, then step order) and the dependencies."""
    g = guard if guard is not None else Guard()
    before = len(g.failures)
    findings: list[Finding] = []
    for name, check in (CHECKS if checks is None else checks).items():
        findings.extend(g.run(f"judge.{name}", check, inp, default=()))
    nothing: list[list[int]] = [[] for _ in inp.steps]
    found = g.run("judge.dependencies", dependencies, inp.steps, inp.problem, default=nothing)
    deps = tuple(tuple(d) for d in found)
    return Evidence(tuple(findings), deps, tuple(failed_names(g.failures[before:])))
