"""The public data contract: GradeRequest in, GradeReport out (docs/architecture.md section 2).

These pydantic models are the boundary shared by the CLI, the service and the benchmark runner;
inside the grader, typed dataclasses carry the data.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

# What a judge (a model, a teacher, a human benchmark) can say of a step.
JudgedLabel = Literal["correct", "incorrect", "meaningless", "redundant"]
# What a report can say: offline, a step that no check could read is `unchecked` and earns its
# expected points (docs/architecture.md 4.2, 4.10); `not_math` is text the solution addressed
# to the grader, reported as a step of its own but graded as if absent (docs/injection.md).
StepLabel = Literal[JudgedLabel, "unchecked", "not_math"]
# What the checks established about a step, whatever its label: a finding held it, a finding
# refuted it, or nothing could read it.
StepState = Literal["holds", "fails", "unchecked"]
# How Eq. 1 counts a step that is right in itself but built on an earlier error: no point
# (StepMathAgent, as StepMathBench's graders did), or its own credit (error carried forward).
ScoringPolicy = Literal["stepmath", "follow_through"]
ProblemType = Literal["calculation", "proof", "open_ended"]
Language = Literal["auto", "en", "zh"]
Mode = Literal["auto", "llm", "offline"]
Evidence = Literal["llm", "symbolic", "alignment", "answer", "structure", "dependency", "memory"]
AnswerMethod = Literal["symbolic", "llm", "both", "none"]
# The group of readings that decided an answer verdict (`scoring.answer.routes`).
AnswerRoute = Literal["exact_value", "rounding", "units", "parts", "text", "math_verify"]
Quadrant = Literal["robust", "hallucination", "lucky_guess", "failure"]
ReviewCode = Literal[
    "proof_without_model",
    "open_ended_without_model",
    "answer_unparsed",
    "answer_unchecked",
    "answer_weak_reading",
    "steps_against_answer",
    "degraded",
    "checks_failed",
    "wide_interval",
    "model_unmeasured",
    "model_unreliable",
    "unconfirmed_finding",
    "proof_by_example",
    "memory_diverged",
    "addressed_to_grader",
]

MAX_TEXT_CHARS = 200_000
MAX_STEPS = 500
# JSON's "\ud800" escapes decode to lone surrogates, which no UTF-8 response can carry back.
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Modules(_Strict):
    """StepMathAgent's extension modules (docs/architecture.md 4.5); all off by default."""

    difficulty: bool = False
    simplicity: bool = False
    completeness: bool = False
    format: bool = False


def _check_text(value: str, field: str) -> str:
    if "\x00" in value:
        raise ValueError(f"{field} contains a NUL byte")
    if _LONE_SURROGATE.search(value):
        raise ValueError(f"{field} contains an unpaired UTF-16 surrogate")
    if len(value) > MAX_TEXT_CHARS:
        raise ValueError(f"{field} is longer than {MAX_TEXT_CHARS} characters")
    return value


def _check_steps(steps: list[str] | None, field: str) -> list[str] | None:
    if steps is None:
        return None
    if len(steps) > MAX_STEPS:
        raise ValueError(f"{field} has more than {MAX_STEPS} steps")
    for i, step in enumerate(steps, 1):
        _check_text(step, f"{field}[{i}]")
    return steps


class GradeRequest(_Strict):
    """One solution to grade. Either `solution` or `solution_steps` is required."""

    problem: str = Field(min_length=1, description="The problem statement.")
    solution: str | None = Field(default=None, description="The worked solution as free text.")
    solution_steps: list[str] | None = Field(
        default=None, description="The solution already split into steps (skips segmentation)."
    )
    reference_answer: str | list[str] | None = Field(
        default=None, description="Gold final answer; with a list, any listed answer counts."
    )
    reference_solution: str | None = None
    reference_steps: list[str] | None = None
    skeleton: list[str] | None = Field(
        default=None, description="Minimal reasoning skeleton for HCRS (else reference steps)."
    )
    problem_type: ProblemType | None = None
    language: Language = "auto"
    modules: Modules = Field(default_factory=Modules)
    mode: Mode = "auto"
    scoring_policy: ScoringPolicy | None = Field(
        default=None,
        description="How a step that is right in itself but built on an earlier error counts: "
        "`stepmath` (no point, StepMathAgent Eq. 1, as StepMathBench's graders marked) or "
        "`follow_through` (its own credit, error carried forward, as exam boards mark); null: "
        "the service's setting. The report carries both scores either way.",
    )
    fused: bool = Field(
        default=False,
        description="LLM mode only: segment, label and link the steps in one model call "
        "(one round trip, like StepMathAgent's single prompt) instead of two.",
    )
    memory: bool = Field(
        default=True,
        description="Grade against what this API key's corrections taught about the same "
        "problem (accepted solutions, known mistakes). false: grade as if nothing was "
        "remembered; the grade is still stored.",
    )

    @field_validator("problem", "solution", "reference_solution")
    @classmethod
    def _text_ok(cls, value: str | None, info: ValidationInfo) -> str | None:
        return None if value is None else _check_text(value, str(info.field_name))

    @field_validator("solution_steps", "reference_steps", "skeleton")
    @classmethod
    def _steps_ok(cls, value: list[str] | None, info: ValidationInfo) -> list[str] | None:
        return _check_steps(value, str(info.field_name))

    @field_validator("reference_answer")
    @classmethod
    def _answers_ok(cls, value: str | list[str] | None) -> str | list[str] | None:
        if isinstance(value, list):
            _check_steps(value, "reference_answer")
        elif value is not None:
            _check_text(value, "reference_answer")
        return value

    @model_validator(mode="after")
    def _has_solution(self) -> GradeRequest:
        """A solution must be given; an empty one is a real submission (`is_empty`), not an error."""
        if self.solution is None and self.solution_steps is None:
            raise ValueError("one of 'solution' or 'solution_steps' is required")
        return self

    def is_empty(self) -> bool:
        """The student handed in nothing: blank `solution`, or `solution_steps` all blank.

        Graded, not refused (docs/scoring.md "Empty solutions"): score 0, no steps, answer not found.
        """
        if self.solution_steps is not None:
            return not any(s.strip() for s in self.solution_steps)
        return not (self.solution or "").strip()

    def gold_answers(self) -> list[str]:
        """The reference answers as a list (empty when none was given)."""
        if self.reference_answer is None:
            return []
        if isinstance(self.reference_answer, str):
            return [self.reference_answer]
        return list(self.reference_answer)


class CheckReport(BaseModel):
    """One check's finding about a step: the evidence a label rests on, or a note that did not
    decide it."""

    kind: str
    polarity: Literal["error", "support"]
    source: Evidence
    detail: str
    decisive: bool = Field(
        description="The kind's measured precision lets it decide a label; "
        "otherwise it only raises or lowers P(wrong)."
    )


class StepReport(BaseModel):
    """One graded step as the API reports it."""

    index: int = Field(description="1-based step number.")
    text: str
    label: StepLabel = Field(
        description="correct, incorrect, meaningless (right in itself, built "
        "on an earlier error), redundant, or unchecked (offline: no check "
        "could confirm or refute it; it earns 1 - p_wrong points)."
    )
    state: StepState = Field(
        default="unchecked",
        description="What the checks established about the step itself: "
        "`holds` (a check confirmed it), `fails` (a check refuted it: the finding is the "
        "reason), `unchecked` (no check could decide it).",
    )
    reason: str
    evidence: list[Evidence] = Field(default_factory=list)
    checks: list[CheckReport] = Field(default_factory=list)
    depends_on: list[int] = Field(default_factory=list, description="1-based earlier steps.")
    aligned_reference: list[int] = Field(
        default_factory=list, description="1-based reference steps."
    )
    similarity: float | None = None
    validity: float = Field(ge=0.0, le=1.0)
    redundancy: float = Field(ge=0.0, le=1.0)
    error_categories: list[str] = Field(default_factory=list)
    p_wrong: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="Calibrated probability that the step itself is wrong (null where the "
        "process was not evaluated).",
    )
    model_label: StepLabel | None = Field(
        default=None,
        description="LLM mode: the model's own label, before the evidence was weighed "
        "(null offline, and where the model's call failed).",
    )


class ErrorTreeReport(BaseModel):
    """The error tree (1-based steps): where errors start and what they spoil."""

    roots: list[int] = Field(default_factory=list)
    edges: list[tuple[int, int]] = Field(default_factory=list)
    chains: list[list[int]] = Field(default_factory=list)
    formatted: str = Field(default="", description='Chains as "(3)-(4)-(6), (5)-(6)".')


class AnswerReport(BaseModel):
    """The final-answer check as the API reports it, both verdicts shown."""

    extracted: str | None = None
    reference: list[str] = Field(default_factory=list)
    correct: bool | None = None
    method: AnswerMethod = "none"
    symbolic: bool | None = None
    llm: bool | None = None
    route: AnswerRoute | None = Field(
        default=None,
        description="The group of readings that decided the symbolic verdict "
        "(None when nothing was compared).",
    )
    route_precision: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="The route's measured precision: the share "
        "of its verdicts that agreed with human graders on the fit half.",
    )


class AlignedPair(BaseModel):
    """One group of reference steps matched with solution steps."""

    reference: list[int] = Field(description="1-based reference steps of the group.")
    solution: list[int] = Field(description="1-based solution steps of the group.")
    similarity: float


class AlignmentReport(BaseModel):
    """The ReAlign alignment against the reference solution."""

    score: float
    pairs: list[AlignedPair] = Field(default_factory=list)
    insertions: list[int] = Field(default_factory=list)
    deletions: list[int] = Field(default_factory=list)
    divergence_step: int | None = None


class HcrsReport(BaseModel):
    """The HCRS score and its parts."""

    score: float
    base: float
    format_penalty: float
    hazard_penalty: float
    first_error: int | None = None


class ReasonEvalReport(BaseModel):
    """ReasonEval's solution-level validity and redundancy."""

    validity: float
    redundancy: float


class DifficultyReport(BaseModel):
    """The problem's difficulty and whether the process was graded at that level."""

    level: int = Field(ge=1, le=3)
    process_evaluated: bool


StructuredMethod = Literal["json_schema", "function_calling", "json_mode"]
DegradeReason = Literal["transport", "format", "content", "deadline"]


class LlmOperation(BaseModel):
    """One LLM operation of a grade: how its answer was obtained, or why it was not."""

    operation: str
    method: StructuredMethod | None = Field(
        default=None,
        description="The structured-output method of the operation's last request: "
        "the one that answered, unless the operation degraded.",
    )
    requests: int = Field(
        default=0,
        description="HTTP requests made: retries, fall-throughs and the repair turn included.",
    )
    repaired: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    max_tokens: int = 0
    ms: float = 0.0
    degraded: DegradeReason | None = Field(
        default=None,
        description="Why the operation fell back to its offline twin: transport, "
        "format (no usable structured answer), content (answer rejected by the checks), deadline.",
    )
    detail: str = ""


class MemoryReport(BaseModel):
    """What this owner's memory of the problem held, and what of it the grade used
    (docs/architecture.md 4.12)."""

    solutions: int = Field(description="Corrected solutions of the problem remembered.")
    accepted_solutions: int = Field(description="Of them, accepted as a whole (reference paths).")
    mistakes: int = Field(description="Steps teachers rejected: known mistakes.")
    last_corrected: datetime | None = Field(default=None, description="The latest correction.")
    aligned_solution: str | None = Field(
        default=None,
        description="`meta.grade_id` of the accepted solution this one was read "
        "against (the best alignment), null without one.",
    )
    reference_answer: bool = Field(
        default=False,
        description="The answer was checked against the accepted solutions' "
        "answer (the request gave none).",
    )
    findings: int = Field(default=0, description="Findings the memory made about the steps.")
    divergence_step: int | None = Field(
        default=None,
        description="The first step (1-based) that leaves every accepted "
        "solution, null when none does or none was accepted.",
    )


class Meta(BaseModel):
    """How the grade was made: mode, model calls, time, warnings and failed checks."""

    mode: Literal["llm", "offline"]
    llm_calls: int = Field(default=0, description="HTTP requests made to the model endpoint.")
    llm_operations: list[LlmOperation] = Field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed_ms: float = 0.0
    node_ms: dict[str, float] = Field(default_factory=dict)
    degraded: bool = False
    warnings: list[str] = Field(default_factory=list)
    failed_checks: list[str] = Field(
        default_factory=list,
        description="Checks that raised and were left out of this grade (each also a warning).",
    )
    versions: dict[str, str] = Field(default_factory=dict)
    memory: MemoryReport | None = Field(
        default=None, description="The problem's memory this grade used; null without one."
    )


class ReviewReason(BaseModel):
    """Why a grade should be looked at by a person: a stable code and its plain reading."""

    code: ReviewCode
    message: str


class PolicyScore(BaseModel):
    """The 0-10 score under one scoring policy (docs/architecture.md 4.13)."""

    score: int = Field(ge=0, le=10)
    raw: float


class FirstErrorReport(BaseModel):
    """The most likely first wrong step: a best guess apart from the labels, for tasks that ask
    for one (ProcessBench), with its probability under the steps' P(wrong)."""

    step: int | None = Field(description="1-based step; null: no step is likely wrong.")
    probability: float = Field(ge=0.0, le=1.0)


class GradeReport(BaseModel):
    """The whole grade of one solution: the API's response."""

    score: int = Field(ge=0, le=10, description="Eq. 1 under `scoring_policy`, rounded.")
    score_raw: float
    score_binary: int = Field(ge=0, le=1)
    score_expected: float | None = Field(
        default=None,
        ge=0.0,
        le=10.0,
        description="Eq. 1 in expectation: each step earns its point with probability "
        "1 - p_wrong (a step built on a step labelled wrong earns none under the `stepmath` "
        "policy). Null where the process was not evaluated.",
    )
    scoring_policy: ScoringPolicy = "stepmath"
    scores: dict[ScoringPolicy, PolicyScore] = Field(
        default_factory=dict, description="The score under each policy, whichever `score` follows."
    )
    summary: str = Field(default="", description="The grade in plain words, for a teacher.")
    likely_first_error: FirstErrorReport | None = Field(
        default=None,
        description="The most likely first wrong step, a best guess apart from "
        "the labels (null where the process was not evaluated).",
    )
    problem_type: ProblemType
    language: Literal["en", "zh"]
    steps: list[StepReport]
    error_tree: ErrorTreeReport
    answer: AnswerReport
    alignment: AlignmentReport | None = None
    hcrs: HcrsReport
    reasoneval: ReasonEvalReport
    holistic: float
    quadrant: Quadrant
    lucky_guess: bool
    hallucination: bool
    difficulty: DifficultyReport | None = None
    score_interval: tuple[int, int] | None = Field(
        default=None,
        description="A central 80% interval [lo, hi] for the human score, from a conformal model "
        "of the score's error (docs/architecture.md 4.11); null where no model is loaded.",
    )
    needs_review: bool = Field(
        default=False,
        description="The grade rests on something the judge could not see: "
        "`review_reasons` says what.",
    )
    review_reasons: list[ReviewReason] = Field(default_factory=list)
    meta: Meta
