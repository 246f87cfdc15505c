"""Run the judge's checks over labelled solutions, exactly as a grade would."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from eval_sets.calibrate.labelled import IN_SAMPLE_READINGS, LabelledSolution
from scoring.answer import check_answer, symbolic_verdict
from scoring.judge import Evidence, JudgeInput, SolutionContext, collect_findings, solution_context
from scoring.verdict import AnswerVerdict


@dataclass(frozen=True)
class Observed:
    """A labelled solution with what the judge reads and what its checks found."""

    solution: LabelledSolution
    inp: JudgeInput
    evidence: Evidence
    # what the step model's prior reads of the whole solution, with the difficulty weights it
    # is fitted with (`with_context`)
    context: SolutionContext = field(default_factory=SolutionContext)


def with_context(observed: Observed, difficulty: Mapping[str, float]) -> Observed:
    """The solution with its context for the difficulty estimate `difficulty` (weights)."""
    return replace(
        observed, context=solution_context(observed.inp, observed.evidence, dict(difficulty))
    )


def observe(
    solutions: Iterable[LabelledSolution], answer_timeout: float = 5.0, progress: bool = True
) -> list[Observed]:
    """What the judge reads of each solution and what its checks find, as in a grade (the answer
    checked against the references when there are any, without `IN_SAMPLE_READINGS`); a line on
    stderr every 100 solutions."""
    out: list[Observed] = []
    for n, sol in enumerate(solutions, 1):
        text = "\n".join(sol.steps)
        if sol.references:
            answer, _ = symbolic_verdict(
                text, sol.references, answer_timeout, sol.problem, IN_SAMPLE_READINGS
            )
        else:  # the answer a grade reports without a reference (a proof's only if stated)
            found = check_answer(text, [], problem=sol.problem, guess=sol.problem_type != "proof")
            answer = AnswerVerdict(found.extracted, ())
        inp = JudgeInput(sol.problem, sol.steps, sol.problem_type, answer, language=sol.language)
        out.append(Observed(sol, inp, collect_findings(inp)))
        if progress and n % 100 == 0:
            print(f"  checked {n} solutions", file=sys.stderr, flush=True)
    return out
