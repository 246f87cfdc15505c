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

    def relabel(self, label: StepLabel, reason: str, evidence: Evidence, **changes: object) -> StepVerdict:
        """A copy with a new label, keeping the earlier evidence alongside the new one."""
        merged = self.evidence if evidence in self.evidence else (*self.evidence, evidence)
        return replace(self, label=label, reason=reason, evidence=merged, **changes)  # type: ignore[arg-type]


@dataclass(frozen=True)
class AnswerVerdict:
    """The final-answer check: dual-mode (symbolic OR LLM judge), both reported (ReAlign)."""

    extracted: str | None
    reference: tuple[str, ...]
    symbolic: bool | None = None
    llm: bool | None = None
    llm_reason: str = ""
    anchored: bool = True

    @property
    def correct(self) -> bool | None:
        if self.symbolic is None and self.llm is None:
            return None
        return bool(self.symbolic) or bool(self.llm)

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
