"""The final step states the answer, so it carries the answer check (proofs have none).

`answer_unmarked_wrong` is the weaker reading: the solution marks no final answer and no
expression in its closing lines equals the reference.
"""

from __future__ import annotations

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput


def find_answer(inp: JudgeInput) -> list[Finding]:
    answer = inp.answer
    correct = answer.correct
    if not inp.steps or inp.problem_type == "proof" or correct is None:
        return []
    last = len(inp.steps) - 1
    if correct:
        return [Finding("answer_correct", last,
                        f"final answer {answer.extracted} matches the reference")]
    ref = " or ".join(answer.reference)
    if answer.anchored:
        return [Finding("answer_wrong", last,
                        f"final answer {answer.extracted} does not match the reference {ref}")]
    return [Finding("answer_unmarked_wrong", last,
                    f"no expression in the closing lines equals the reference {ref}")]
