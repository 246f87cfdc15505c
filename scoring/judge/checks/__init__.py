"""The checks of the offline judge: each reads a solution and returns findings, never labels.

`CHECKS` is the closed list the collector runs, by name; a check that raises is left out of
that grade (`scoring.judge.collect`) and named `judge.<name>`. Each check is a function
`JudgeInput -> list[Finding]`, named `find_<name>` in the module `<name>`; the other modules
here (`step_consequence`, `rewrite_check`, `latexlint`) are what some of them are built from.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.judge.checks.arithmetic import find_arithmetic
from scoring.judge.checks.back_substitution import find_back_substitution
from scoring.judge.checks.contradiction import find_contradictions
from scoring.judge.checks.derivation import find_derivations
from scoring.judge.checks.early_answer import find_early_answer
from scoring.judge.checks.examples_only import find_examples_only
from scoring.judge.checks.final_answer import find_final_answer
from scoring.judge.checks.malformed import find_malformed
from scoring.judge.checks.memory import find_memory
from scoring.judge.checks.odd_copy import find_odd_copies
from scoring.judge.checks.off_topic import find_off_topic
from scoring.judge.checks.reference import find_reference
from scoring.judge.checks.repeat import find_repeats
from scoring.judge.checks.unexplained import find_unexplained
from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput

Check = Callable[[JudgeInput], list[Finding]]

CHECKS: dict[str, Check] = {
    "arithmetic": find_arithmetic,
    "contradiction": find_contradictions,
    "derivation": find_derivations,
    "back_substitution": find_back_substitution,
    "final_answer": find_final_answer,
    "reference": find_reference,
    "malformed": find_malformed,
    "repeat": find_repeats,
    "unexplained": find_unexplained,
    "odd_copy": find_odd_copies,
    "early_answer": find_early_answer,
    "off_topic": find_off_topic,
    "examples_only": find_examples_only,
    "memory": find_memory,
}

__all__ = ["CHECKS", "Check"]
