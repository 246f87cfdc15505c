"""The five LLM operations: render the prompt, size the answer, ask, read the grader's types.

Each returns the same types as the operation's offline twin in `scoring/`, so a node can swap
one for the other; each raises `LlmError` (with its reason) when the model gave nothing usable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agent.llm.records import LlmRun
from agent.llm.schemas import (
    SHORT_LIST,
    AnswerJudgement,
    Difficulty,
    FusedJudgement,
    JudgedStep,
    Segmentation,
    StepJudgement,
)
from agent.llm.tokens import estimated_steps, limits
from prompts.render import render
from scoring.schema import JudgedLabel, Modules, ProblemType
from scoring.verdict import DifficultyVerdict, StepVerdict

if TYPE_CHECKING:
    from agent.llm.client import LlmClient
    from agent.llm.structured import Check

# ReasonEval-style step scores for model labels (no probabilities from a chat model).
VALIDITY: dict[JudgedLabel, float] = {
    "correct": 0.85,
    "incorrect": 0.1,
    "meaningless": 0.6,
    "redundant": 0.7,
}
REDUNDANCY: dict[JudgedLabel, float] = {
    "correct": 0.05,
    "incorrect": 0.05,
    "meaningless": 0.05,
    "redundant": 0.9,
}


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


async def _ask(
    llm: LlmClient,
    run: LlmRun,
    operation: str,
    language: str,
    *,
    items: int = 0,
    exact: bool = False,
    verbatim: str = "",
    check: Check | None = None,
    reference_count: int = SHORT_LIST,
    **variables: Any,
) -> Any:
    # Imported here: an offline grade never loads the OpenAI SDK.
    from agent.llm.structured import Ask, ask

    prompt = render(operation, language, **variables)
    ceiling, bounds = limits(
        operation,
        language=language,
        items=items,
        exact=exact,
        verbatim=verbatim,
        reason_tokens=llm.config.reason_tokens,
        cap=llm.config.max_tokens,
        references=reference_count,
    )
    return await ask(
        llm, run, Ask(operation, prompt, language, ceiling, bounds, check, student_texts(variables))
    )


def student_texts(variables: dict[str, Any]) -> tuple[str, ...]:
    """The student's texts among a prompt's variables: the solution, its steps, its answer."""
    texts = [variables.get("solution"), variables.get("answer"), *variables.get("steps", ())]
    return tuple(t for t in texts if isinstance(t, str) and t)


def _verdict(step: JudgedStep | Any, index: int, warnings: list[str]) -> StepVerdict:
    label: JudgedLabel = step.label
    deps = [d for d in step.depends_on if 1 <= d < index]
    if len(deps) != len(step.depends_on):
        warnings.append(
            f"step {index}: model dependencies {step.depends_on} include non-earlier steps; dropped"
        )
    return StepVerdict(
        label=label,
        reason=step.reason.strip() or f"model label: {label}",
        evidence=("llm",),
        depends_on=tuple(sorted(set(deps))),
        error_categories=tuple(step.error_categories),
        validity=VALIDITY[label],
        redundancy=REDUNDANCY[label],
    )


async def judge_difficulty(
    llm: LlmClient, run: LlmRun, problem: str, solution: str, language: str
) -> Difficulty:
    """The model's difficulty reading, which decides whether the steps are judged at all."""
    answer: Difficulty = await _ask(
        llm, run, "difficulty", language, problem=problem, solution=solution
    )
    return answer


def to_difficulty_verdict(answer: Difficulty) -> DifficultyVerdict:
    """The model's answer in the form the offline calibration gives, so later nodes read one type."""
    needed = answer.process_evaluation_needed or answer.level > 1
    return DifficultyVerdict(answer.level, needed, answer.reason)


def _most_steps(solution: str) -> int:
    """At most one step per line or sentence: the prompts ask for whole ideas and to merge
    fragments, and a small model under a grammar fills the list to its bound (Gemma 3 270M
    wrote "1".."12" for a four-line solution given room for 12). Human segmentations seldom
    have more steps than this."""
    return estimated_steps(solution)


def _some_step(value: Segmentation) -> list[str]:
    return [] if any(s.strip() for s in value.steps) else ["steps: the list is empty"]


async def segment_solution(
    llm: LlmClient, run: LlmRun, problem: str, solution: str, language: str
) -> list[str]:
    """The solution split into steps by the model, blank steps dropped."""
    answer: Segmentation = await _ask(
        llm,
        run,
        "segmentation",
        language,
        items=_most_steps(solution),
        verbatim=solution,
        check=_some_step,
        problem=problem,
        solution=solution,
    )
    return [s.strip() for s in answer.steps if s.strip()]


async def judge_steps(
    llm: LlmClient,
    run: LlmRun,
    req: JudgeRequest,
    steps: Sequence[str],
    warnings: list[str],
    span: tuple[int, int] | None = None,
) -> list[StepVerdict]:
    """`step_judgement` of steps `span` = (first, last), 1-based inclusive (default: all).

    All steps are shown for context either way; exactly the asked indices must come back, in
    order (checked, then repaired).
    """
    first, last = span or (1, len(steps))

    def check(value: StepJudgement) -> list[str]:
        indices = [s.index for s in value.steps]
        if indices != list(range(first, last + 1)):
            return [
                (
                    f"steps: expected {last - first + 1} entries with index {first}..{last} in "
                    f"order, got indices {indices}"
                )
            ]
        return []

    answer: StepJudgement = await _ask(
        llm,
        run,
        "step_judgement",
        req.language,
        items=last - first + 1,
        exact=True,
        check=check,
        reference_count=len(req.reference_steps),
        **req.prompt_variables(),
        steps=list(steps),
        first=first,
        last=last,
    )
    return [_verdict(s, s.index, warnings) for s in answer.steps]


def _some_text(value: FusedJudgement) -> list[str]:
    return [] if any(s.text.strip() for s in value.steps) else ["steps: no step with text"]


async def judge_fused(
    llm: LlmClient, run: LlmRun, req: JudgeRequest, solution: str, warnings: list[str]
) -> tuple[list[str], list[StepVerdict]]:
    """`fused_judgement`: segmentation, labels and dependencies in one call (the original prompt's shape)."""
    answer: FusedJudgement = await _ask(
        llm,
        run,
        "fused_judgement",
        req.language,
        items=_most_steps(solution),
        verbatim=solution,
        check=_some_text,
        reference_count=len(req.reference_steps),
        **req.prompt_variables(),
        solution=solution,
    )
    kept = [s for s in answer.steps if s.text.strip()]
    return [s.text.strip() for s in kept], [_verdict(s, i, warnings) for i, s in enumerate(kept, 1)]


async def judge_answer(
    llm: LlmClient, run: LlmRun, problem: str, answer: str, references: Sequence[str], language: str
) -> AnswerJudgement:
    """The model's judgement of the final answer against the references."""
    verdict: AnswerJudgement = await _ask(
        llm,
        run,
        "answer_judgement",
        language,
        problem=problem,
        answer=answer,
        references=list(references),
    )
    return verdict
