"""A final answer stated before the work it depends on.

A solution derives its answer and then, at most, restates or checks it. When a step states the
final answer as a result ("so x = 1250", "the answer is 29") and later steps still derive new
things without mentioning it, the answer was stated before the work that produces it: steps were
swapped (ReasonEval's "swap steps"), or the writer guessed first. The answer step depends on
quantities only later steps produce.

Only decided when the answer is a single number that the problem does not give (a small number
turns up everywhere), when the step where it first appears states it as a result
(`scoring.parse.quantities`), and when the later work is not a check of the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput
from scoring.parse.equations import check_relation, extract_relations
from scoring.parse.lexicon import CASE_WORDS, CHECK_WORDS, HEDGE_WORDS, SUBSTITUTE_WORDS, words
from scoring.parse.quantities import TRIVIAL, extract_quantities, literal_numbers

_CHECK = words(CHECK_WORDS, SUBSTITUTE_WORDS, (r"\bindeed\b",))
_CASES = words(HEDGE_WORDS, CASE_WORDS)


@dataclass(frozen=True)
class EarlyAnswer:
    """Step `step` (0-based) states the answer `answer`; steps `later` (0-based) still derive."""

    step: int
    answer: str
    later: tuple[int, ...]

    @property
    def detail(self) -> str:
        """What the finding says, for a person reading the report."""
        shown = ", ".join(str(j + 1) for j in self.later[:3])
        return f"states the final answer {self.answer} before the work of step {shown}"


def _derives(step: str, answer: str, seen: set[str]) -> bool:
    """New numbers or a relation that does not involve the answer: work, not a restatement."""
    if _CHECK.search(step):
        return False
    numbers = set(literal_numbers(step))
    if answer in numbers:
        return False
    if numbers - seen - TRIVIAL:
        return True
    return any(answer not in literal_numbers(f"{r.lhs} {r.rhs}") for r in extract_relations(step))


def _derived_here(step: str, answer: str, known: set[str]) -> bool:
    """`5 + 100 + 5 = 110` from numbers already known: the answer is worked out where it first
    appears, whatever follows (a second method, a check) is not work it waited for."""
    for rel in extract_relations(step):
        for side, other in ((rel.rhs, rel.lhs), (rel.lhs, rel.rhs)):
            if (
                literal_numbers(side) == [answer]
                and set(literal_numbers(other)) <= known
                and check_relation(rel).verdict == "true"
            ):
                return True
    return False


def early_answer(problem: str, steps: Sequence[str], answer: str | None) -> EarlyAnswer | None:
    """The step that states the final answer before later steps derive new results, if any."""
    if not answer:
        return None
    found = literal_numbers(answer)
    if len(found) != 1 or found[0] in TRIVIAL:
        return None
    value = found[0]
    given = set(literal_numbers(problem))
    if value in given:
        return None
    mentions = [literal_numbers(s) for s in steps]
    first = next((i for i, m in enumerate(mentions) if value in m), None)
    if first is None or first == len(steps) - 1:
        return None
    if value not in extract_quantities(steps[first]).produced:
        return None  # mentioned in passing (a list, a coefficient), not stated as a result
    if _CASES.search(steps[first]):
        return None  # one case among several: later steps try the others
    seen = given.union(*mentions[:first]) | TRIVIAL
    if _derived_here(steps[first], value, seen):
        return None
    seen |= set(mentions[first])
    later: list[int] = []
    for j in range(first + 1, len(steps)):
        if _derives(steps[j], value, seen):
            later.append(j)
        seen |= set(mentions[j])
    return EarlyAnswer(first, value, tuple(later)) if later else None


def find_early_answer(inp: JudgeInput) -> list[Finding]:
    """An `early_answer` finding for the step that states the answer before its work."""
    early = early_answer(inp.problem, inp.steps, inp.answer.extracted)
    return [] if early is None else [Finding("early_answer", early.step, early.detail)]
