"""How sure a finished grade is: its score interval and review flags (docs/architecture.md 4.11).

The graph's last node and the service's offline fallback both finish a report here, so a grade
that degraded after the graph ran is judged on what it finally is.
"""

from __future__ import annotations

from scoring.schema import GradeReport, ReviewReason
from scoring.score import ModelReliability, UncertaintyModel, assess, features_of


def with_review(
    report: GradeReport, model: UncertaintyModel | None, reliability: ModelReliability | None = None
) -> GradeReport:
    """The report with `score_interval`, `needs_review` and `review_reasons` set from `model`
    (without fitted statistics the reasons are still given, with no interval); `reliability` is
    the LLM's in the report's language, so that a grade weighed with an unmeasured or unreliable
    model says so."""
    review = assess(features_of(report, reliability), model)
    return report.model_copy(
        update={
            "score_interval": review.score_interval,
            "needs_review": review.needs_review,
            "review_reasons": [
                ReviewReason(code=code, message=message) for code, message in review.reasons
            ],
        }
    )
