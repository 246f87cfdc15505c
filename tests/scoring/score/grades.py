"""Hand-written uncertainty statistics and grade features shared by the interval and review
tests: three cells whose intervals can be computed by hand."""

from __future__ import annotations

from dataclasses import replace

from scoring.score.features import GradeFeatures
from scoring.score.interval import Cell, UncertaintyModel

# right answers: humans give 10 (-0 / +0); wrong answers: centred on 3, wide; pooled: moderate.
CELLS = {
    "right": Cell(n=50, intercept=10.0, slope=0.0, spread0=1.0, spread1=0.0, q_lo=-1.0, q_hi=0.0),
    "wrong": Cell(n=50, intercept=3.0, slope=0.0, spread0=1.0, spread1=1.0, q_lo=-2.0, q_hi=1.5),
    "all": Cell(n=100, intercept=0.0, slope=1.0, spread0=1.0, spread1=0.0, q_lo=-2.0, q_hi=2.0),
}
MODEL = UncertaintyModel("test", 0.8, CELLS, max_width=5)


def features(**kw: object) -> GradeFeatures:
    base = GradeFeatures(
        problem_type="calculation",
        verdict="right",
        has_reference=True,
        answer_read=True,
        mode="offline",
        step_logic_checked=False,
        degraded=False,
        steps=4,
        score=10,
    )
    return replace(base, **kw)  # type: ignore[arg-type]
