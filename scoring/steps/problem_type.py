"""Offline guess of StepMathAgent's problem type from the problem statement.

Proofs and open-ended questions are scored on all steps alike (Eq. 1), calculations weigh the
final answer, so the type matters; the LLM decides it in LLM mode, these cue words offline.
"""

from __future__ import annotations

import re

from scoring.parse.lexicon.labels import CJK_NUMERALS
from scoring.schema import ProblemType

_PROOF = re.compile(
    r"\b(prove|proof|show that|demonstrate that|verify that|justify why)\b|证明|求证|试证",
    re.IGNORECASE,
)
_OPEN = re.compile(
    r"\b(explain|discuss|describe|compare|why does|what do you think|give an example)\b"
    r"|\b(give|find|write down|name) (at least |any )?(one|two|three|several|an?) (possible |such )?"
    r"(examples?|answers?|solutions?|equations?)\b"
    r"|讨论|说明理由|举例|谈谈|论述|阐述|写出(至少)?[" + CJK_NUMERALS + r"两几\d]+个|任写|开放",
    re.IGNORECASE,
)


def detect_problem_type(problem: str) -> ProblemType:
    """`proof` when the problem asks to prove, `open_ended` when it asks to discuss, else calculation."""
    if _PROOF.search(problem):
        return "proof"
    if _OPEN.search(problem):
        return "open_ended"
    return "calculation"
