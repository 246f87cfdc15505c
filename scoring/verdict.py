"""Typed results passed between the grader's stages (the LLM judge and its offline twin alike)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from scoring.schema import AnswerMethod, AnswerRoute, Evidence, StepLabel, StepState


@dataclass(frozen=True)
class CheckNote:
    """What one check found about a step, as the report shows it: whether it speaks for an
    error or for the step, where it comes from, and whether its kind is precise enough to
    decide a label (`decisive`) or only warns."""

    kind: str
    polarity: Literal["error", "support"]
    source: Evidence
    detail: str
    decisive: bool


@dataclass(frozen=True)
class StepVerdict:
    """One step's label with the evidence behind it; `depends_on` holds 1-based earlier steps;
    `state` is what the decisive checks established about the step itself (docs/architecture.md
    4.10), whatever its label."""

    label: StepLabel
    reason: str
    evidence: tuple[Evidence, ...] = ()
    depends_on: tuple[int, ...] = ()
    error_categories: tuple[str, ...] = ()
    validity: float = 0.75
    redundancy: float = 0.1
    p_wrong: float | None = None
    model_label: StepLabel | None = None
    state: StepState = "unchecked"
    # The points a step earns under follow-through when its label denies it a point only
    # because of an earlier error (a meaningless step, a final answer that carries an earlier
    # error forward); None: its label's points.
    follow_credit: float | None = None
    checks: tuple[CheckNote, ...] = ()

    def relabel(
        self, label: StepLabel, reason: str, evidence: Evidence, **changes: object
    ) -> StepVerdict:
        """A copy with a new label, keeping the earlier evidence alongside the new one."""
        merged = self.evidence if evidence in self.evidence else (*self.evidence, evidence)
        return replace(self, label=label, reason=reason, evidence=merged, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class FirstErrorGuess:
    """The most likely first wrong step (0-based; None: no step likely wrong) and the
    probability, under the steps' P(wrong), that the first wrong step is this one."""

    step: int | None
    probability: float


@dataclass(frozen=True)
class AnswerVerdict:
    """The final-answer check: the symbolic verdict and the model's, both reported (ReAlign).

    `correct` is the decision (docs/architecture.md 4.7, 4.10): the symbolic "equal" stands; a model's
    "equal" counts where the symbolic check could not decide or could not prove equality,
    but not where both answers were read as values that differ (`plain_difference`: numbers,
    letters, matrices, parts compared in code), which no model's word overrules.

    `route` is the group of readings that decided the symbolic verdict and `route_precision`
    its measured precision (`scoring.answer.routes`); `route_decides` is False when that
    precision is below the decision threshold, and then `deciding` withholds a decision that
    rests on the symbolic verdict alone: it is reported, and warns, but moves no step label.
    """

    extracted: str | None
    reference: tuple[str, ...]
    symbolic: bool | None = None
    llm: bool | None = None
    llm_reason: str = ""
    anchored: bool = True
    plain_difference: bool = False
    route: AnswerRoute | None = None
    route_precision: float | None = None
    route_decides: bool = True

    @property
    def deciding(self) -> bool | None:
        """`correct` where it may decide step labels; None where it rests on a symbolic verdict
        whose route is too imprecise to decide (a model's own verdict still decides)."""
        if self.route_decides:
            return self.correct
        from_model = (
            self.llm is not None
            and self.symbolic is not True
            and not (self.symbolic is False and self.plain_difference)
        )
        return self.correct if from_model else None

    @property
    def correct(self) -> bool | None:
        """The decision from both verdicts: a symbolic 'equal' stands, a value difference
        overrules the model, otherwise the model's verdict, else the symbolic one."""
        if self.symbolic is True:
            return True
        if self.symbolic is False and self.plain_difference:
            return False
        if self.llm is not None:
            return self.llm
        return self.symbolic

    @property
    def overruled_model(self) -> bool:
        """The model said "equal" for two plain numbers that differ: its word was set aside."""
        return self.llm is True and self.symbolic is False and self.plain_difference

    @property
    def method(self) -> AnswerMethod:
        """Which verdicts the decision had: the report says how the answer was judged."""
        if self.symbolic is not None and self.llm is not None:
            return "both"
        if self.symbolic is not None:
            return "symbolic"
        return "llm" if self.llm is not None else "none"


@dataclass(frozen=True)
class DifficultyVerdict:
    """StepMathAgent's difficulty calibration: simple problems skip process evaluation."""

    level: int
    process_evaluation_needed: bool
    reason: str = ""
