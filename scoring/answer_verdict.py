"""The symbolic half of the answer verdict, as the judge reads it (DESIGN.md 4.7)."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.answer import check_answer
from scoring.answer_readings import READINGS
from scoring.verdict import AnswerVerdict

# The readings that compare parsed values in code (numbers, letters, matrices, parts): a "not
# equal" from one of them is two values that differ, not math-verify failing to prove equality.
PARSED = frozenset(name for name, _ in READINGS)


def symbolic_verdict(text: str, gold: Sequence[str], timeout: float) -> tuple[AnswerVerdict, list[str]]:
    """The final answer found in `text` checked against the references, and what to warn about."""
    check = check_answer(text, list(gold), timeout=timeout)
    warnings: list[str] = []
    if gold and check.extracted is None:
        warnings.append("no final answer found in the solution")
    elif gold and check.correct is None:
        warnings.append(f"could not decide whether {check.extracted!r} equals the reference answer")
    verdict = AnswerVerdict(
        extracted=check.extracted, reference=tuple(gold), symbolic=check.correct,
        anchored=check.anchored,
        plain_difference=check.correct is False and check.reading in PARSED,
    )
    return verdict, warnings
