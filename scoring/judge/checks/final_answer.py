"""The final step states the answer, so it carries the answer check (proofs have none).

`answer_unmarked_wrong` is the weaker reading: the solution marks no final answer and no
expression in its closing lines equals the reference. A verdict whose route is too imprecise to
decide (`scoring.answer.routes`) gives no finding: it is reported, and the answer check warns.
"""

from __future__ import annotations

from scoring.judge.findings import Finding
from scoring.judge.input import JudgeInput


def find_final_answer(inp: JudgeInput) -> list[Finding]:
    """The answer check as a finding on the last step, which states the answer; proofs,
    undecided answers and verdicts of an imprecise route give none."""
    answer = inp.answer
    correct = answer.deciding
    if not inp.steps or inp.problem_type == "proof" or correct is None:
        return []
    last = len(inp.steps) - 1
    if correct:
        return [
            Finding(
                "answer_correct", last, f"final answer {answer.extracted} matches the reference"
            )
        ]
    ref = " or ".join(answer.reference)
    if answer.anchored:
        return [
            Finding(
                "answer_wrong",
                last,
                f"final answer {answer.extracted} does not match the reference {ref}",
            )
        ]
    return [
        Finding(
            "answer_unmarked_wrong",
            last,
            f"no expression in the closing lines equals the reference {ref}",
        )
    ]
