"""The checks of the offline judge: each reads a solution and returns findings, never labels.

`CHECKS` is the closed list the collector runs, by name; a check that raises is left out of
that grade (`scoring.judge.collect`). Each check is a function `JudgeInput -> list[Finding]`.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.judge.checks.arithmetic import find_calculations
from scoring.judge.checks.back_substitution import find_back_substitution
from scoring.judge.checks.contradiction import find_contradictions
from scoring.judge.checks.derivation import find_derivations
from scoring.judge.checks.final_answer import find_answer
from scoring.judge.checks.form import find_malformed, find_repeats
from scoring.judge.checks.reference import find_reference
from scoring.judge.checks.soft import (
    find_early_answer,
    find_odd_copies,
    find_off_topic,
    find_unexplained,
)
from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput

Check = Callable[[JudgeInput], list[Finding]]

CHECKS: dict[str, Check] = {
    "arithmetic": find_calculations,
    "contradiction": find_contradictions,
    "derivation": find_derivations,
    "back_substitution": find_back_substitution,
    "final_answer": find_answer,
    "reference": find_reference,
    "format": find_malformed,
    "repeat": find_repeats,
    "provenance": find_unexplained,
    "restatement": find_odd_copies,
    "ordering": find_early_answer,
    "relatedness": find_off_topic,
}
