"""The results of a run that have a report: what every summary table reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eval_sets.runner.store import ItemResult
from scoring.schema import GradeReport


@dataclass(frozen=True)
class Graded:
    """A result whose grading succeeded (the report is there)."""

    result: ItemResult
    report: GradeReport


def with_reports(results: Sequence[ItemResult]) -> list[Graded]:
    """The results that have a report; a failed item has no figure to count."""
    return [Graded(r, r.report) for r in results if r.report is not None]
