"""The summary tables on reports whose labels and scores are set by hand (arithmetic below)."""

from __future__ import annotations

import pytest

from agent.grader import Grader
from eval_sets.bundled import bundled_path
from eval_sets.registry import load_dataset
from eval_sets.runner.graded import with_reports
from eval_sets.runner.store import ItemResult
from eval_sets.runner.summary import (
    false_positive_table,
    perturbation_table,
    step_agreement_table,
    summarise,
    validity_table,
)
from eval_sets.runner.tables import to_latex, to_markdown
from scoring.schema import FirstErrorReport

# bundled mr_math_invalid: item 1 valid (3 steps), 2 first error 1 (3), 3 valid (4), 4 first error 2 (4)
SET = {  # step validities, step labels (c/i), answer correct
    "mr-invalid-1": ([0.9, 0.8, 0.9], "ccc", True),
    "mr-invalid-2": ([0.2, 0.9, 0.9], "icc", False),
    "mr-invalid-3": ([0.9, 0.4, 0.9, 0.9], "cicc", True),
    "mr-invalid-4": ([0.9, 0.6, 0.3, 0.9], "ccic", True),
}
LABEL = {"c": "correct", "i": "incorrect"}


@pytest.fixture(scope="module")
def results() -> list[ItemResult]:
    grader = Grader()
    out = []
    for item in load_dataset("mr_math_invalid", bundled_path("mr_math_invalid")):
        report = grader.grade(item.request)
        validity, labels, correct = SET[item.id]
        steps = [
            s.model_copy(update={"validity": v, "label": LABEL[c]})
            for s, v, c in zip(report.steps, validity, labels, strict=True)
        ]
        first = next((i for i, c in enumerate(labels, 1) if c == "i"), None)
        report = report.model_copy(
            update={
                "steps": steps,
                "likely_first_error": FirstErrorReport(step=first, probability=0.5),
                "reasoneval": report.reasoneval.model_copy(update={"validity": min(validity)}),
                "answer": report.answer.model_copy(update={"correct": correct}),
            }
        )
        out.append(ItemResult(id=item.id, gold=item.gold, request=item.request, report=report))
    return out


def test_validity_table_by_hand(results) -> None:
    from eval_sets.runner.graded import with_reports

    table = validity_table(with_reports(results), 0.5)
    row = dict(zip(table.columns, table.rows[-1], strict=True))
    # solution validity = min of the steps: .8, .2, .4, .3; gold 1, 0, 1, 0 -> preds 1, 0, 0, 0
    # valid: tp 1 fn 1 -> 2/3; invalid: tp 2 fp 1 -> 4/5; AUC: both positives above both negatives
    assert row["sol. F1"] == pytest.approx((2 / 3 + 4 / 5) / 2)
    assert row["sol. AUC"] == pytest.approx(1.0)
    # steps: item 1 all 3, item 2 step 1, item 3 all 4, item 4 steps 1-2 -> 10 labelled steps
    # gold 1,1,1,0,1,1,1,1,1,0 vs scores .9,.8,.9,.2,.9,.4,.9,.9,.9,.6
    # valid class tp 7 fp 1 fn 1 -> 14/16; invalid tp 1 fp 1 fn 1 -> 1/2; AUC 15/16
    assert row["steps"] == 10
    assert row["step F1"] == pytest.approx((14 / 16 + 0.5) / 2)
    assert row["step AUC"] == pytest.approx(15 / 16)
    # ProcessBench: first errors predicted None, 1, 2, 3 vs gold None, 1, None, 2
    assert (row["err. acc"], row["corr. acc"], row["PB F1"]) == (0.5, 0.5, 0.5)


def test_false_positive_table_by_hand(results) -> None:
    from eval_sets.runner.graded import with_reports

    table = false_positive_table(with_reports(results))
    rows = {r[0]: r[1:] for r in table.rows}
    assert rows["answer only"] == (3, pytest.approx(1 / 3))  # items 1, 3, 4; item 4 invalid
    assert rows["answer and no flagged step"] == (1, 0.0)  # item 1 only


def test_rendered_tables(results) -> None:
    tables = {t.key: t for t in summarise(results)}
    assert {"overview", "validity", "false_positives", "quadrants"} <= tables.keys()
    md = to_markdown(tables["false_positives"])
    assert "| answer only | 3 | 0.333 |" in md
    tex = to_latex(tables["false_positives"])
    assert "answer only & 3 & 0.333 \\\\" in tex and "\\begin{tabular}{lrr}" in tex


def test_failures_table_lists_reasons_and_escapes_pipes() -> None:
    from eval_sets.items import RowError
    from eval_sets.runner.store import ItemResult
    from eval_sets.runner.summary import FAILURES_SHOWN, failures_table

    rows = [
        ItemResult.unreadable(RowError(f"d.jsonl:{i}", f"d.jsonl:{i}: bad | row"))
        for i in range(FAILURES_SHOWN + 3)
    ]
    table = failures_table(rows)
    assert table is not None and len(table.rows) == FAILURES_SHOWN
    assert table.note == "3 more in results.jsonl (lines with an error)."
    assert "| d.jsonl:1 | d.jsonl:1: bad \\| row |" in to_markdown(table)
    assert failures_table(rows[:0]) is None


def test_the_quadrant_table_names_each_column_once(results) -> None:
    """The `lucky_guess` quadrant and the report's `lucky_guess` flag are different columns,
    and no two columns read alike (`lucky_guess` against `lucky guess`)."""
    table = next(t for t in summarise(results) if t.key == "quadrants")
    read_alike = [c.replace("_", " ").lower() for c in table.columns]
    assert len(set(read_alike)) == len(read_alike)
    assert "lucky_guess" in table.columns and "lucky_guess flag (HCRS)" in table.columns
    flags = [r.report.lucky_guess for r in results if r.report is not None]
    overall = next(row for row in table.rows if row[0] == "overall")
    assert overall[-1] == pytest.approx(sum(flags) / len(flags))


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
