"""Run every check on one solution and gather what they found.

A check that raises is left out of this grade and named in `Evidence.failed_checks`: one
unreadable step must not take a whole grade (or a benchmark run) down, and the report says
which check is missing instead of scoring silently without it.
"""

from __future__ import annotations

import logging

from scoring.judge.checks import CHECKS, Check
from scoring.judge.findings import Evidence, Finding
from scoring.judge.input import JudgeInput
from scoring.quantities import dependencies

log = logging.getLogger(__name__)


def collect_findings(inp: JudgeInput, checks: dict[str, Check] | None = None) -> Evidence:
    """The findings of every check (in check order, then step order) and the dependencies."""
    findings: list[Finding] = []
    failed: list[str] = []
    for name, check in (CHECKS if checks is None else checks).items():
        try:
            findings.extend(check(inp))
        except Exception:
            log.warning("check %s failed; left out of this grade", name, exc_info=True)
            failed.append(name)
    try:
        deps = tuple(tuple(d) for d in dependencies(inp.steps, inp.problem))
    except Exception:
        log.warning("check dependencies failed; left out of this grade", exc_info=True)
        failed.append("dependencies")
        deps = tuple(() for _ in inp.steps)
    return Evidence(tuple(findings), deps, tuple(failed))
