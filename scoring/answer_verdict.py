"""The symbolic half of the answer verdict, as the judge reads it (DESIGN.md 4.7)."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.answer import AnswerCheck, check_answer
from scoring.answer_readings import READINGS
from scoring.verdict import AnswerVerdict

# The readings that compare parsed values in code (numbers, letters, matrices, parts): a "not
# equal" from one of them is two values that differ, not math-verify failing to prove equality.
PARSED = frozenset(name for name, _ in READINGS)


def _shown(answer: str | None, limit: int = 80) -> str:
    """The answer as a warning shows it: quoted, and clipped when long (it may be 200,000 chars)."""
    text = repr(answer)
    if len(text) <= limit:
        return text
    return f"{text[: limit - 5]}...{text[-1]} ({len(answer or '')} characters)"


def answer_warnings(check: AnswerCheck, gold: Sequence[str], timeout: float) -> list[str]:
    """What a reader of the report must know about the answer check: not found, undecided."""
    if not gold:
        return []
    if check.timed_out:
        return [(f"answer check timed out after {timeout:g} s of CPU: whether "
                 f"{_shown(check.extracted)} equals the reference is left undecided")]
    if check.extracted is None:
        return ["no final answer found in the solution"]
    if check.correct is None:
        return [f"could not decide whether {_shown(check.extracted)} equals the reference answer"]
    return []


def answer_verdict(check: AnswerCheck, gold: Sequence[str]) -> AnswerVerdict:
    """The symbolic verdict of an answer check; `plain_difference` when parsed values differ."""
    return AnswerVerdict(
        extracted=check.extracted, reference=tuple(gold), symbolic=check.correct,
        anchored=check.anchored,
        plain_difference=check.correct is False and check.reading in PARSED,
    )


def symbolic_verdict(text: str, gold: Sequence[str], timeout: float,
                     problem: str = "") -> tuple[AnswerVerdict, list[str]]:
    """The final answer found in `text` checked against the references, and what to warn about."""
    check = check_answer(text, list(gold), timeout=timeout, problem=problem)
    return answer_verdict(check, gold), answer_warnings(check, gold, timeout)
