"""The five LLM operations: render the prompt, say which schema to call for, read the grader's types.

Each function returns an `Ask` whose result has the same types as the operation's offline twin in
`scoring/`, so a node can swap one for the other, plus the `CallRecord`s of its round trips for
`meta`. The node yields the `Ask`; the graph's runtime makes the call (sync or async).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agent.llm.ask import Ask
from agent.llm.records import CallRecord, Result
from agent.llm.schemas import (
    AnswerJudgement,
    Difficulty,
    FusedJudgement,
    JudgedStep,
    Segmentation,
    StepJudgement,
)
from prompts.render import render
from scoring.schema import Modules, ProblemType, StepLabel
from scoring.verdict import DifficultyVerdict, StepVerdict

# ReasonEval-style step scores for model labels (no probabilities from a chat model).
VALIDITY: dict[StepLabel, float] = {"correct": 0.85, "incorrect": 0.1, "meaningless": 0.6, "redundant": 0.7}
REDUNDANCY: dict[StepLabel, float] = {"correct": 0.05, "incorrect": 0.05, "meaningless": 0.05, "redundant": 0.9}


@dataclass(frozen=True)
class JudgeRequest:
    """What the step judges need besides the steps: the REPA references and the modules."""

    problem: str
    problem_type: ProblemType
    language: str
    references: Sequence[str]
    reference_steps: Sequence[str]
    modules: Modules

    def prompt_variables(self) -> dict[str, Any]:
        """The template variables both judging prompts share."""
        return {
            "problem": self.problem,
            "problem_type": self.problem_type,
            "references": list(self.references),
            "reference_steps": list(self.reference_steps),
            "modules": self.modules,
        }


def _verdict(step: JudgedStep | object, index: int, warnings: list[str]) -> StepVerdict:
    label: StepLabel = step.label  # type: ignore[attr-defined]
    deps = [d for d in step.depends_on if 1 <= d < index]  # type: ignore[attr-defined]
    if len(deps) != len(step.depends_on):  # type: ignore[attr-defined]
        warnings.append(f"step {index}: model dependencies {step.depends_on} include non-earlier steps; dropped")  # type: ignore[attr-defined]
    return StepVerdict(
        label=label,
        reason=step.reason.strip() or f"model label: {label}",  # type: ignore[attr-defined]
        evidence=("llm",),
        depends_on=tuple(sorted(set(deps))),
        error_categories=tuple(step.error_categories),  # type: ignore[attr-defined]
        validity=VALIDITY[label],
        redundancy=REDUNDANCY[label],
    )


def judge_difficulty(problem: str, solution: str, language: str) -> Ask[tuple[Difficulty, list[CallRecord]]]:
    return Ask("difficulty", render("difficulty", language, problem=problem, solution=solution), _plain)


def to_difficulty_verdict(answer: Difficulty) -> DifficultyVerdict:
    needed = answer.process_evaluation_needed or answer.level > 1
    return DifficultyVerdict(answer.level, needed, answer.reason)


def segment_solution(problem: str, solution: str, language: str) -> Ask[tuple[list[str], list[CallRecord]]]:
    def check(value: Segmentation) -> list[str]:
        return [] if any(s.strip() for s in value.steps) else ["steps: the list is empty"]

    def read(result: Result[Segmentation]) -> tuple[list[str], list[CallRecord]]:
        return [s.strip() for s in result.value.steps if s.strip()], result.records

    prompt = render("segmentation", language, problem=problem, solution=solution)
    return Ask("segmentation", prompt, read, check)


def judge_steps(
    req: JudgeRequest,
    steps: Sequence[str],
    warnings: list[str],
    span: tuple[int, int] | None = None,
) -> Ask[tuple[list[StepVerdict], list[CallRecord]]]:
    """`step_judgement` of steps `span` = (first, last), 1-based inclusive (default: all).

    All steps are shown for context either way; exactly the asked indices must come back, in
    order (checked, then repaired).
    """
    first, last = span or (1, len(steps))

    def check(value: StepJudgement) -> list[str]:
        indices = [s.index for s in value.steps]
        if indices != list(range(first, last + 1)):
            return [
                (f"steps: expected {last - first + 1} entries with index {first}..{last} in order, "
                f"got indices {indices}")
            ]
        return []

    def read(result: Result[StepJudgement]) -> tuple[list[StepVerdict], list[CallRecord]]:
        return [_verdict(s, s.index, warnings) for s in result.value.steps], result.records

    prompt = render("step_judgement", req.language, **req.prompt_variables(),
                    steps=list(steps), first=first, last=last)
    return Ask("step_judgement", prompt, read, check)


def judge_fused(
    req: JudgeRequest, solution: str, warnings: list[str]
) -> Ask[tuple[list[str], list[StepVerdict], list[CallRecord]]]:
    """`fused_judgement`: segmentation, labels and dependencies in one call (the original prompt's shape)."""

    def check(value: FusedJudgement) -> list[str]:
        return [] if any(s.text.strip() for s in value.steps) else ["steps: no step with text"]

    def read(result: Result[FusedJudgement]) -> tuple[list[str], list[StepVerdict], list[CallRecord]]:
        kept = [s for s in result.value.steps if s.text.strip()]
        steps = [s.text.strip() for s in kept]
        verdicts = [_verdict(s, i, warnings) for i, s in enumerate(kept, 1)]
        return steps, verdicts, result.records

    prompt = render("fused_judgement", req.language, **req.prompt_variables(), solution=solution)
    return Ask("fused_judgement", prompt, read, check)


def judge_answer(
    problem: str, answer: str, references: Sequence[str], language: str
) -> Ask[tuple[AnswerJudgement, list[CallRecord]]]:
    prompt = render("answer_judgement", language, problem=problem, answer=answer, references=list(references))
    return Ask("answer_judgement", prompt, _plain)


def _plain(result: Result[Any]) -> tuple[Any, list[CallRecord]]:
    return result.value, result.records
