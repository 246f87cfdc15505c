"""Typed results passed between the grader's stages (the LLM judge and its offline twin alike)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoring.schema import AnswerMethod, Evidence, StepLabel


@dataclass(frozen=True)
class StepVerdict:
    """One step's label with the evidence behind it; `depends_on` holds 1-based earlier steps."""

    label: StepLabel
    reason: str
    evidence: tuple[Evidence, ...] = ()
    depends_on: tuple[int, ...] = ()
    error_categories: tuple[str, ...] = ()
    validity: float = 0.75
    redundancy: float = 0.1
    p_wrong: float | None = None
    model_label: StepLabel | None = None

    def relabel(self, label: StepLabel, reason: str, evidence: Evidence, **changes: object) -> StepVerdict:
        """A copy with a new label, keeping the earlier evidence alongside the new one."""
        merged = self.evidence if evidence in self.evidence else (*self.evidence, evidence)
        return replace(self, label=label, reason=reason, evidence=merged, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class AnswerVerdict:
    """The final-answer check: the symbolic verdict and the model's, both reported (ReAlign).

    `correct` is the decision (DESIGN.md 4.7, 4.10): the symbolic "equal" stands; a model's
    "equal" counts where the symbolic check could not decide or could not prove equality,
    but not where both answers were read as values that differ (`plain_difference`: numbers,
    letters, matrices, parts compared in code), which no model's word overrules.
    """

    extracted: str | None
    reference: tuple[str, ...]
    symbolic: bool | None = None
    llm: bool | None = None
    llm_reason: str = ""
    anchored: bool = True
    plain_difference: bool = False

    @property
    def correct(self) -> bool | None:
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
