"""Text addressed to the grader, back in the report: a step of its own, labelled `not_math`,
where it stood (docs/injection.md).

The grade was made without it (`scoring.judge.stripping`): every number in the report is the
grade of the solution as if the text were absent. Here each cut piece becomes a step that
earns nothing and roots no error, carrying its `addressed_to_grader` finding, placed after the
graded step it followed, and every step number the report holds (steps, dependencies, the error
tree, the alignment, HCRS's first error, the likely first error, where the solution left the
problem's memory (`meta.memory`), step numbers in the summary, reasons, findings and warnings) is renumbered to
match. Scores are left as they are.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from typing import Literal

from scoring.judge.findings import FindingKind
from scoring.judge.stripping import AddressedPiece
from scoring.schema import (
    AlignedPair,
    AlignmentReport,
    CheckReport,
    ErrorTreeReport,
    GradeReport,
    Meta,
    ReviewReason,
    StepReport,
)
from scoring.score.summary import steps_en, steps_zh

NOT_MATH: Literal["not_math"] = "not_math"
KIND: FindingKind = "addressed_to_grader"  # the finding such a step carries
# Step numbers in text: "step 3", "steps 2-4, 6 and 8" (a reference solution's steps keep
# theirs); "第3步", "第2-4、6步".
_EN = re.compile(r"(?<![Rr]eference )\b([Ss]teps?) (\d+(?:-\d+)?(?:(?:, | and )\d+(?:-\d+)?)*)\b")
_ZH = re.compile(r"第(\d+(?:-\d+)?(?:、\d+(?:-\d+)?)*)步")


def _starts(graded: str, steps: Sequence[str]) -> list[int]:
    """Where each graded step starts in the graded text: found in order (a step the model
    reworded is placed where the previous one ended)."""
    starts, at = [], 0
    for step in steps:
        found = graded.find(step.strip(), at) if step.strip() else -1
        if found < 0:
            head = step.strip()[:20]
            found = graded.find(head, at) if head else -1
        starts.append(at if found < 0 else found)
        at = max(at, starts[-1] + (len(step.strip()) if found >= 0 else 0))
    return starts


def placement(graded: str, steps: Sequence[str], pieces: Sequence[AddressedPiece]) -> list[int]:
    """For each piece, how many graded steps come before it (0: before the first)."""
    starts = _starts(graded, steps)
    return [bisect.bisect_left(starts, piece.at) for piece in pieces]


def _numbers(listed: str) -> list[int]:
    out: list[int] = []
    for part in re.split(r", | and |、", listed):
        first, _, last = part.partition("-")
        out += range(int(first), int(last or first) + 1)
    return out


def renumber(text: str, new: Callable[[int], int]) -> str:
    """`text` with every step number it names mapped by `new` (runs rewritten as runs)."""

    def english(m: re.Match[str]) -> str:
        steps = [new(i) for i in _numbers(m.group(2))]
        said = (
            steps_en(steps)
            if m.group(1).lower() == "steps" or len(steps) > 1
            else f"step {steps[0]}"
        )
        return said[0].upper() + said[1:] if m.group(1)[0] == "S" else said

    text = _EN.sub(english, text)
    return _ZH.sub(lambda m: steps_zh([new(i) for i in _numbers(m.group(1))]), text)


def not_math_step(index: int, piece: AddressedPiece) -> StepReport:
    """The report's step for a piece: not mathematics, with the finding that says so."""
    return StepReport(
        index=index,
        text=piece.text,
        label=NOT_MATH,
        state="fails",
        reason=f"not mathematics, {piece.reading}; graded as if absent: it earns no points and "
        "is no error",
        evidence=["structure"],
        checks=[
            CheckReport(
                kind=KIND, polarity="error", source="structure", detail=piece.reading, decisive=True
            )
        ],
        validity=0.0,
        redundancy=0.0,
        error_categories=[KIND],
    )


def splice_addressed(
    report: GradeReport, graded: str, pieces: Sequence[AddressedPiece]
) -> GradeReport:
    """The report with each piece as a `not_math` step where it stood in `graded` (the text
    that was graded), every step number renumbered; scores unchanged."""
    if not pieces:
        return report
    after = placement(graded, [s.text for s in report.steps], pieces)
    n = len(report.steps)
    shift = [sum(1 for k in after if k < i) for i in range(1, n + 2)]

    def new(i: int) -> int:
        return i + shift[i - 1] if 1 <= i <= n else i

    steps: list[StepReport] = []
    for i in range(n + 1):
        if i:
            old = report.steps[i - 1]
            steps.append(
                old.model_copy(
                    update={
                        "index": new(i),
                        "depends_on": [new(d) for d in old.depends_on],
                        "reason": renumber(old.reason, new),
                        "checks": [
                            c.model_copy(update={"detail": renumber(c.detail, new)})
                            for c in old.checks
                        ],
                    }
                )
            )
        for piece, k in zip(pieces, after, strict=True):
            if k == i:
                steps.append(not_math_step(len(steps) + 1, piece))
    added = [s.index for s in steps if s.label == NOT_MATH]
    tree = report.error_tree
    chains = [[new(i) for i in chain] for chain in tree.chains]
    first = report.likely_first_error
    return report.model_copy(
        update={
            "steps": steps,
            "error_tree": ErrorTreeReport(
                roots=[new(i) for i in tree.roots],
                edges=[(new(a), new(b)) for a, b in tree.edges],
                chains=chains,
                formatted=", ".join("-".join(f"({i})" for i in c) for c in chains),
            ),
            "alignment": _alignment(report.alignment, new),
            "hcrs": report.hcrs.model_copy(
                update={
                    "first_error": None
                    if report.hcrs.first_error is None
                    else new(report.hcrs.first_error)
                }
            ),
            "likely_first_error": None
            if first is None
            else first.model_copy(update={"step": None if first.step is None else new(first.step)}),
            "summary": _summary(renumber(report.summary, new), added, report.language),
            "review_reasons": [
                ReviewReason(code=r.code, message=renumber(r.message, new))
                for r in report.review_reasons
            ],
            "meta": _meta(report, new, added),
        }
    )


def _meta(report: GradeReport, new: Callable[[int], int], added: list[int]) -> Meta:
    """The meta with its warnings renumbered and one more, and where the solution left the
    problem's memory renumbered."""
    remembered = report.meta.memory
    return report.meta.model_copy(
        update={
            "warnings": [*(renumber(w, new) for w in report.meta.warnings), _warning(added)],
            "memory": None
            if remembered is None
            else remembered.model_copy(
                update={
                    "divergence_step": None
                    if remembered.divergence_step is None
                    else new(remembered.divergence_step)
                }
            ),
        }
    )


def _alignment(al: AlignmentReport | None, new: Callable[[int], int]) -> AlignmentReport | None:
    if al is None:
        return None
    return al.model_copy(
        update={
            "pairs": [
                AlignedPair(
                    reference=p.reference,
                    solution=[new(s) for s in p.solution],
                    similarity=p.similarity,
                )
                for p in al.pairs
            ],
            "insertions": [new(s) for s in al.insertions],
            "divergence_step": None if al.divergence_step is None else new(al.divergence_step),
        }
    )


def _summary(summary: str, added: list[int], language: str) -> str:
    """The summary, and a sentence on the text addressed to the grader."""
    if language == "zh":
        return f"{summary}{steps_zh(added)}是写给阅卷人的话，不是数学，未计分。"
    said = steps_en(added)
    verb = "is" if len(added) == 1 else "are"
    return (
        f"{summary} {said[0].upper()}{said[1:]} {verb} text addressed to the grader, "
        "not mathematics, and was not graded."
    ).strip()


def _warning(indices: list[int]) -> str:
    return f"text addressed to the grader ({steps_en(indices)}): graded as if it were absent"
