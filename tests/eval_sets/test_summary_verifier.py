"""The verifier's tables: validity AUC against the originals, weakest step, step agreement."""

from __future__ import annotations

import pytest

from agent.grader import Grader
from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset
from eval_sets.runner.graded import with_reports
from eval_sets.runner.store import ItemResult
from eval_sets.runner.summary import perturbation_table, step_agreement_table

# solution validities set by hand: originals .9 and .5; the weakest step index (1-based) per item
VALIDITY = {
    "pert-orig-0": (0.9, 1),
    "pert-orig-1": (0.5, 1),
    "pert-0": (0.1, 2),
    "pert-1": (0.7, 1),
    "pert-2": (0.5, 2),
    "pert-3": (0.95, 1),
    "pert-4": (0.2, 2),
    "pert-5": (0.1, 1),
}


def _with(report, validity: float, weakest: int, labels=None):
    steps = [
        s.model_copy(
            update={
                "validity": validity if s.index == weakest else 1.0,
                **({"label": labels[s.index - 1]} if labels else {}),
            }
        )
        for s in report.steps
    ]
    return report.model_copy(
        update={
            "steps": steps,
            "reasoneval": report.reasoneval.model_copy(update={"validity": validity}),
        }
    )


@pytest.fixture(scope="module")
def grader() -> Grader:
    return Grader()


def test_validity_auc_and_weakest_step_by_hand(grader) -> None:
    results = []
    for item in load_dataset("perturbation", bundled_path("perturbation")):
        report = _with(grader.grade(item.request), *VALIDITY[item.id])
        results.append(ItemResult(id=item.id, gold=item.gold, request=item.request, report=report))
    rows = {
        r[0]: dict(zip(perturbation_table(with_reports(results)).columns, r, strict=True))
        for r in perturbation_table(with_reports(results)).rows
    }
    # random number .1 is below both originals (.9, .5): AUC 1; random operation .95 above both: 0
    assert rows["random number"]["validity AUC"] == 1.0
    assert rows["random operation"]["validity AUC"] == 0.0
    # swap steps .5 ties one original and is below the other: (1 + 0.5) / 2
    assert rows["swap steps"]["validity AUC"] == pytest.approx(0.75)
    # overall: .1 .7 .5 .95 .2 .1 against .9 and .5 -> (2+1+1.5+0+2+2) / 12
    assert rows["overall"]["validity AUC"] == pytest.approx(8.5 / 12)
    # weakest step = perturbed step: pert-0 (2 = 2), pert-2 (2 = 2), pert-4 (2 = 2), pert-5 (1 = 1)
    assert rows["overall"]["weakest step"] == pytest.approx(4 / 6)
    assert rows["original"]["validity AUC"] is None


def test_step_agreement_only_where_segmentations_match(grader) -> None:
    results = []
    for item in load_dataset("stepmath", bundled_path("stepmath")):
        report = grader.grade(item.request)
        gold = item.gold.step_labels or ()
        if len(report.steps) == len(gold):
            # agree on all but the first step of each matched item
            flipped = ["incorrect" if gold[0] in ("correct", "redundant") else "correct", *gold[1:]]
            report = _with(report, 0.5, 1, flipped)
        results.append(ItemResult(id=item.id, gold=item.gold, request=item.request, report=report))
    matched = [r for r in results if len(r.report.steps) == len(r.gold.step_labels or ())]
    assert len(matched) == 5  # the bundled set is written one step per line
    table = step_agreement_table(with_reports(results))
    row = dict(zip(table.columns, table.rows[-1], strict=True))
    steps = sum(len(r.report.steps) for r in matched)
    assert (row["items"], row["steps"]) == (len(matched), steps)
    assert row["accuracy"] == pytest.approx((steps - len(matched)) / steps)
