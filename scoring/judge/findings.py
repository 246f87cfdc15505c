"""What a check may say about a step: a typed finding, never a label (docs/architecture.md 4.10).

Checks find; one decision layer (`scoring.judge.decide`) decides. A finding names its kind from a
closed set, the step it is about, whether it speaks for an error or for the step, and a detail a
person can read. How much a kind is worth is not the check's business: it is measured on labelled
data (`eval_sets.calibrate`) and read from the calibration file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

Polarity = Literal["error", "support"]

FindingKind = Literal[
    # closed arithmetic in the step (equations, chains, arithmetic stated in words)
    "calculation_false",
    "calculation_true",
    # a relation that contradicts values established by earlier steps
    "contradiction",
    # an equation derived in the step that shares no root with the one it comes from
    "derivation",
    # an operation carried onto the previous step's result that gives another value
    "continuation",
    # an announced rewrite (expand, simplify) that changes the value
    "rewrite",
    # the solution's final values, put back into its own equations, fail one
    "back_substitution",
    # the final answer against the reference answer
    "answer_wrong",
    "answer_unmarked_wrong",
    "answer_correct",
    # against the reference solution (alignment)
    "reference_unmatched",
    "reference_mismatch",
    # malformed LaTeX (format module)
    "malformed_latex",
    # the step repeats an earlier one (speaks for redundancy, not for an error)
    "repeat",
    # numbers that neither the problem nor earlier steps explain
    "unexplained_number",
    "unexplained_unused",
    # a copy of an expression that differs from its other copies in one number or operator
    "odd_copy",
    # the final answer stated before the work it depends on
    "early_answer",
    # the step does not resemble the problem at all (embedding similarity)
    "off_topic",
    # a proof's general conclusion drawn from particular values only
    "examples_only",
    # against the problem's memory (teachers' corrections of other solutions of the problem):
    # the step's work was accepted there, repeats a rejected step, or is where the solution
    # leaves every accepted path
    "memory_accepted",
    "memory_mistake",
    "memory_divergence",
    # text addressed to the grader (a request for marks, a claim of verification, an
    # instruction): not mathematics, graded as if absent (docs/injection.md)
    "addressed_to_grader",
]
FINDING_KINDS: tuple[FindingKind, ...] = get_args(FindingKind)
# Kinds about text the grade does not read: such a step is reported, never weighed, so the
# step model has no weight for them (`WEIGHED_KINDS` are those it has).
UNGRADED_KINDS: frozenset[FindingKind] = frozenset({"addressed_to_grader"})
WEIGHED_KINDS: tuple[FindingKind, ...] = tuple(k for k in FINDING_KINDS if k not in UNGRADED_KINDS)

SUPPORT_KINDS: frozenset[FindingKind] = frozenset(
    {"calculation_true", "answer_correct", "memory_accepted"}
)
# The final answer against the reference: findings about the value the solution ends with.
ANSWER_KINDS: frozenset[FindingKind] = frozenset(
    {"answer_wrong", "answer_unmarked_wrong", "answer_correct"}
)
# Kinds read against a problem's memory: weighed by their own section of the calibration file
# (`scoring.judge.calibration.MEMORY_SECTION`), measured where memory exists.
MEMORY_KINDS: frozenset[FindingKind] = frozenset(
    {"memory_accepted", "memory_mistake", "memory_divergence"}
)
# Kinds about redundancy rather than about being wrong; the decision reads them separately.
REDUNDANCY_KINDS: frozenset[FindingKind] = frozenset({"repeat"})

# Where a kind's evidence comes from, for the report's `evidence` list.
SOURCE: dict[FindingKind, str] = {
    "calculation_false": "symbolic",
    "calculation_true": "symbolic",
    "contradiction": "symbolic",
    "derivation": "symbolic",
    "continuation": "symbolic",
    "rewrite": "symbolic",
    "back_substitution": "symbolic",
    "answer_wrong": "answer",
    "answer_unmarked_wrong": "answer",
    "answer_correct": "answer",
    "reference_unmatched": "alignment",
    "reference_mismatch": "alignment",
    "malformed_latex": "structure",
    "repeat": "structure",
    "unexplained_number": "structure",
    "unexplained_unused": "structure",
    "odd_copy": "structure",
    "early_answer": "structure",
    "off_topic": "structure",
    "examples_only": "structure",
    "memory_accepted": "memory",
    "memory_mistake": "memory",
    "memory_divergence": "memory",
    "addressed_to_grader": "structure",
}


@dataclass(frozen=True)
class Finding:
    """One observation about one step (0-based `step`)."""

    kind: FindingKind
    step: int
    detail: str

    @property
    def polarity(self) -> Polarity:
        """Whether the finding speaks for an error or for the step, read off its kind."""
        return "support" if self.kind in SUPPORT_KINDS else "error"


@dataclass(frozen=True)
class Evidence:
    """Everything the checks found in one solution.

    `failed_checks` names the checks that raised: they were left out of this grade (and the
    report says so) instead of taking the whole grade down. `depends_on` holds, per step, the
    0-based earlier steps whose results it uses.
    """

    findings: tuple[Finding, ...]
    depends_on: tuple[tuple[int, ...], ...]
    failed_checks: tuple[str, ...] = ()

    def at(self, step: int) -> list[Finding]:
        """The findings about one step (0-based)."""
        return [f for f in self.findings if f.step == step]
