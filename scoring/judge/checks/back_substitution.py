"""The solution's own final values put back into its earlier equations
(`scoring.judge.checks.backsubstitute`): an equation they fail was solved wrongly somewhere."""

from __future__ import annotations

from scoring.judge.checks.backsubstitute import back_substitute
from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.equations import extract_relations


def find_back_substitution(inp: JudgeInput) -> list[Finding]:
    relations = [extract_relations(s) for s in inp.steps]
    return [Finding("back_substitution", f.step, f.detail)
            for f in back_substitute(relations, inp.steps)]
