"""Which reading of a report agrees best with the human 0-10 scores of StepMathBench.

Three scores of the same items, each against the human `gold_score` (Corr, MSE, OR of
StepMathAgent Table 3):
- `score`: StepMathAgent Eq. 1 on the decided labels (in LLM mode, the model's labels fused with
  the checks' evidence);
- `score_expected`: Eq. 1 in expectation under the steps' P(wrong)
  (`scoring.score.stepmath.expected_score`); Corr and MSE on the expectation itself, OR after Eq. 1's
  rounding φ, since a 0-10 integer is what OR compares;
- model labels alone: Eq. 1 on the LLM's own labels before the evidence was weighed
  (`StepReport.model_label`), the score an LLM judge gives without the checks. Shown whenever the
  reports carry model labels.

Every row is measured on the same items, those for which each shown reading exists, so that the
rows compare the readings and not the items.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from eval_sets.metrics import avg_score, mse, overlap_ratio, pearson
from eval_sets.runner.graded import Graded
from eval_sets.runner.tables import Table
from scoring.schema import GradeReport
from scoring.score import score_solution

Reading = Callable[[GradeReport], float | None]


def model_alone_score(report: GradeReport) -> int | None:
    """Eq. 1 on the model's own step labels; None unless the model labelled every step."""
    labels = [s.model_label for s in report.steps]
    if not labels or any(label is None for label in labels):
        return None
    return score_solution(labels, report.problem_type).score  # type: ignore[arg-type]


def _expected(report: GradeReport) -> float | None:
    return report.score_expected


READINGS: tuple[tuple[str, Reading, Callable[[float], float]], ...] = (
    ("score", lambda r: float(r.score), lambda x: x),
    ("score_expected", _expected, round),
    ("model labels alone", model_alone_score, lambda x: x),
)


def score_sources_table(graded: Sequence[Graded]) -> Table | None:
    """Corr / MSE / OR of each available reading, on the items where all of them exist."""
    items = [g for g in graded if g.result.gold.score is not None]
    shown = [
        (name, read, phi)
        for name, read, phi in READINGS
        if any(read(g.report) is not None for g in items)
    ]
    if len(shown) < 2:  # the score alone: the stepmath table already has it
        return None
    common = [g for g in items if all(read(g.report) is not None for _, read, _ in shown)]
    if not common:
        return None
    gold = [float(g.result.gold.score) for g in common]  # type: ignore[arg-type]
    rows = []
    for name, read, phi in shown:
        pred = [float(read(g.report)) for g in common]  # type: ignore[arg-type]
        rows.append(
            (
                name,
                len(common),
                avg_score(pred),
                pearson(pred, gold),
                mse(pred, gold),
                overlap_ratio([phi(p) for p in pred], gold),
            )
        )
    left_out = len(items) - len(common)
    note = (
        "Corr, MSE and OR against the human 0-10 score; score_expected's OR after rounding. "
        "model labels alone = Eq. 1 on the LLM's own step labels, before the checks."
    )
    if left_out:
        note += f" {left_out} item(s) lacking one of the readings are left out of every row."
    return Table(
        "score_sources",
        "Scores against human gold: fused labels, expectation, model alone",
        ("score", "n", "AvgS", "Corr", "MSE", "OR"),
        tuple(rows),
        note=note,
    )
