"""What the review queue reads from a stored report: the one place that knows those fields.

The uncertainty work (its own issue) adds `score_interval`, `needs_review` and `review_reasons`
to the GradeReport; reports stored before it, or graded without it, have none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ReviewFields:
    needs_review: bool = False
    score_interval: tuple[int, int] | None = None
    review_reasons: list[dict[str, str]] = field(default_factory=list)

    @property
    def interval_width(self) -> int | None:
        """The interval's width, for ordering by uncertainty (None without an interval)."""
        if self.score_interval is None:
            return None
        lo, hi = self.score_interval
        return hi - lo


def review_fields(report: Mapping[str, Any]) -> ReviewFields:
    """The review fields of a report as JSON (`GradeReport.model_dump(mode="json")`)."""
    interval = report.get("score_interval")
    reasons = report.get("review_reasons") or []
    return ReviewFields(
        needs_review=bool(report.get("needs_review", False)),
        score_interval=(int(interval[0]), int(interval[1]))
        if isinstance(interval, list | tuple) and len(interval) == 2
        else None,
        review_reasons=[
            {"code": str(r.get("code", "")), "message": str(r.get("message", ""))}
            for r in reasons
            if isinstance(r, Mapping)
        ],
    )
