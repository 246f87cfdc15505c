"""What the score interval and the review flags read from a finished grade (`GradeFeatures`).

Both read the same whole-grade features, and two readings of them that both use: a right answer
with steps labelled wrong (`steps_against_answer`), and an answer nothing checked
(`answer_unchecked`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol

from scoring.schema import GradeReport, ProblemType

Verdict = Literal["right", "wrong", "none"]


@dataclass(frozen=True)
class GradeFeatures:
    """What the interval and the review flags read from a finished grade."""

    problem_type: ProblemType
    verdict: Verdict
    has_reference: bool
    answer_read: bool
    mode: Literal["llm", "offline"]
    step_logic_checked: bool  # a model judged the steps (LLM mode, not degraded)
    degraded: bool
    steps: int
    score: int
    score_expected: float | None = None
    max_p_wrong: float = 0.0
    sum_p_wrong: float = 0.0
    verified_share: float = 0.0  # steps a verifying finding (symbolic, answer) covers
    failed_checks: tuple[str, ...] = ()
    route_precision: float | None = None  # the deciding reading's measured precision, if known
    wrong_steps: int = 0  # steps labelled incorrect or meaningless
    # a step not labelled wrong carries a symbolic check's error finding (it did not decide)
    unconfirmed_finding: bool = False
    examples_only: bool = False  # a proof's conclusion drawn from particular values only
    # LLM mode: where the model's reliability came from ("measured", "set", "assumed"), its
    # Youden's J, and the fewest labelled steps (of wrong and right) it was measured on.
    model_reliability: str | None = None
    model_youden: float | None = None
    model_steps: int | None = None
    # graded against a memory of the problem holding an accepted solution or its answer, and
    # whether the solution left every accepted solution (docs/architecture.md 4.12)
    memory: bool = False
    memory_diverged: bool = False
    addressed: int = 0  # steps of text addressed to the grader (label not_math), not graded


def features_of(report: GradeReport, reliability: ModelReliability | None = None) -> GradeFeatures:
    """The features of a finished GradeReport, the answer route's measured precision included;
    `reliability` is the model's, in the report's language (LLM mode). Steps of text addressed
    to the grader (label `not_math`) were not graded and are not read as steps."""
    steps = [s for s in report.steps if s.label != "not_math"]
    p_wrong = [s.p_wrong for s in steps if s.p_wrong is not None]
    verified = sum(1 for s in steps if {"symbolic", "answer"} & set(s.evidence))
    correct = report.answer.correct
    remembered = report.meta.memory
    return GradeFeatures(
        problem_type=report.problem_type,
        verdict="right" if correct else ("wrong" if correct is False else "none"),
        has_reference=bool(report.answer.reference),
        answer_read=report.answer.extracted is not None and correct is not None,
        mode=report.meta.mode,
        step_logic_checked=report.meta.mode == "llm" and not report.meta.degraded,
        degraded=report.meta.degraded,
        steps=len(steps),
        score=report.score,
        score_expected=report.score_expected,
        max_p_wrong=max(p_wrong, default=0.0),
        sum_p_wrong=sum(p_wrong),
        verified_share=verified / len(steps) if steps else 0.0,
        failed_checks=tuple(report.meta.failed_checks),
        route_precision=report.answer.route_precision,
        wrong_steps=sum(s.label in ("incorrect", "meaningless") for s in steps),
        unconfirmed_finding=any(
            s.label not in ("incorrect", "meaningless")
            and any(c.polarity == "error" and c.source == "symbolic" for c in s.checks)
            for s in steps
        ),
        examples_only=any(c.kind == "examples_only" for s in steps for c in s.checks),
        model_reliability=None if reliability is None else reliability.source,
        model_youden=None if reliability is None else reliability.youden,
        model_steps=None
        if reliability is None or reliability.wrong is None or reliability.right is None
        else min(reliability.wrong, reliability.right),
        memory=remembered is not None
        and (remembered.aligned_solution is not None or remembered.reference_answer),
        memory_diverged=remembered is not None and remembered.divergence_step is not None,
        addressed=len(report.steps) - len(steps),
    )


class ModelReliability(Protocol):
    """What the review reads of a model's reliability (`scoring.judge.Reliability` is one)."""

    @property
    def source(self) -> str:
        """Where the rates come from: "measured", "set" or "assumed"."""
        ...

    @property
    def youden(self) -> float:
        """Sensitivity minus false-alarm rate (Youden's J)."""
        ...

    @property
    def wrong(self) -> int | None:
        """Wrong steps the rates were measured on (None when not measured)."""
        ...

    @property
    def right(self) -> int | None:
        """Right steps the rates were measured on (None when not measured)."""
        ...


def steps_against_answer(features: GradeFeatures) -> bool:
    """Offline, the answer is right and yet steps were labelled wrong (the score is below 10).

    The two signals disagree, and the answer-right cell cannot say which to believe: its
    grades almost all score 10, so its interval is the score itself (on the fit half, 2 of its
    75 grades score below 10, both 9, given 10 and 5 by humans; on the grader's own
    segmentation 4, given 10, 10, 5 and 8). A check that misreads a right step is one cause, a
    slip the answer survived is the other."""
    return (
        not features.step_logic_checked
        and features.problem_type == "calculation"
        and features.verdict == "right"
        and features.score < 10
        and features.wrong_steps > 0
    )


def answer_unchecked(features: GradeFeatures) -> bool:
    """A calculation graded without a reference answer, whose answer nothing decided."""
    return (
        features.problem_type == "calculation"
        and not features.has_reference
        and features.verdict == "none"
    )
