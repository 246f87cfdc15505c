"""The summary's score readings (fused, expected, model alone) and ProcessBench's subset mean, on
reports whose labels and scores are set by hand (arithmetic in the comments)."""

from __future__ import annotations

import pytest

from agent.grader import Grader
from eval_sets.items import Gold
from eval_sets.metrics import pearson
from eval_sets.runner.graded import with_reports
from eval_sets.runner.score_sources import model_alone_score, score_sources_table
from eval_sets.runner.store import ItemResult
from eval_sets.runner.summary import summarise, validity_table
from eval_sets.runner.tables import to_markdown
from scoring.schema import FirstErrorReport, GradeReport, GradeRequest

LABEL = {"c": "correct", "i": "incorrect", "m": "meaningless", None: None}
REQUEST = GradeRequest(
    problem="Compute 2 + 3, then double it.",
    solution_steps=["2 + 3 = 5.", "5 * 2 = 10."],
    problem_type="calculation",
)


@pytest.fixture(scope="module")
def two_steps() -> GradeReport:
    """A real two-step calculation report, to be relabelled by hand."""
    return Grader().grade(REQUEST)


def _result(
    base: GradeReport,
    uid: str,
    gold: Gold,
    labels: str,
    model: str | None = None,
    score: int = 0,
    expected: float | None = None,
) -> ItemResult:
    steps = [
        s.model_copy(update={"label": LABEL[c], "model_label": LABEL[model[i]] if model else None})
        for i, (s, c) in enumerate(zip(base.steps, labels, strict=True))
    ]
    first = next((i for i, c in enumerate(labels, 1) if c == "i"), None)
    report = base.model_copy(
        update={
            "steps": steps,
            "score": score,
            "score_expected": expected,
            "likely_first_error": FirstErrorReport(step=first, probability=0.5),
        }
    )
    return ItemResult(id=uid, gold=gold, request=REQUEST, report=report)


def test_model_alone_is_eq1_on_the_model_labels(two_steps) -> None:
    # calculation, two steps: 6 * g1 + 4 * g2 (StepMathAgent Eq. 1)
    assert model_alone_score(_result(two_steps, "a", Gold(), "ii", "ci").report) == 6
    assert model_alone_score(_result(two_steps, "a", Gold(), "cc", "mc").report) == 4
    assert model_alone_score(_result(two_steps, "a", Gold(), "cc").report) is None


def test_three_readings_on_the_same_items(two_steps) -> None:
    results = [  # gold, decided labels (score), expected score, model labels
        _result(two_steps, "A", Gold(score=10), "cc", "cc", 10, 9.6),  # model 10
        _result(two_steps, "B", Gold(score=0), "ii", "cc", 0, 1.2),  # model 10 (missed both)
        _result(two_steps, "C", Gold(score=6), "ci", "ci", 6, 5.4),  # model 6
        _result(two_steps, "D", Gold(score=4), "ci", "ic", 6, 4.4),  # model 4
        _result(two_steps, "E", Gold(score=10), "cc", None, 10, None),  # not evaluated: left out
    ]
    table = score_sources_table(with_reports(results))
    rows = table.to_json()["rows"]
    assert list(rows) == ["score", "score_expected", "model labels alone"]
    gold = [10, 0, 6, 4]
    # score 10, 0, 6, 6: one miss of 2 -> MSE 4/4, OR 3/4
    assert rows["score"] == {
        "n": 4,
        "AvgS": 5.5,
        "Corr": pytest.approx(pearson([10, 0, 6, 6], gold)),
        "MSE": 1.0,
        "OR": 0.75,
    }
    # expected 9.6, 1.2, 5.4, 4.4: MSE (.16 + 1.44 + .36 + .16) / 4; rounded 10, 1, 5, 4 -> OR 2/4
    expected = rows["score_expected"]
    assert expected["MSE"] == pytest.approx(0.53) and expected["OR"] == 0.5
    assert expected["Corr"] == pytest.approx(pearson([9.6, 1.2, 5.4, 4.4], gold))
    # model alone 10, 10, 6, 4: MSE 100 / 4, OR 3/4
    alone = rows["model labels alone"]
    assert (alone["MSE"], alone["OR"]) == (25.0, 0.75)
    assert alone["Corr"] == pytest.approx(pearson([10, 10, 6, 4], gold))
    assert "1 item(s) lacking one of the readings" in table.note
    assert "| model labels alone | 4 | 7.500 |" in to_markdown(table)


def test_offline_reports_show_score_and_expected_only(two_steps) -> None:
    results = [
        _result(two_steps, "A", Gold(score=10), "cc", None, 10, 8.0),
        _result(two_steps, "B", Gold(score=4), "ic", None, 4, 5.0),
    ]
    tables = {t.key: t for t in summarise(results)}
    assert [r[0] for r in tables["score_sources"].rows] == ["score", "score_expected"]
    no_expectation = [_result(two_steps, "A", Gold(score=10), "cc", None, 10, None)]
    assert score_sources_table(with_reports(no_expectation)) is None


def test_processbench_f1_is_averaged_over_the_subsets(two_steps) -> None:
    def item(uid: str, subset: str, first_error: int | None, labels: str) -> ItemResult:
        gold = Gold(subset=subset, process_correct=first_error is None, first_error=first_error)
        return _result(two_steps, uid, gold, labels)

    results = [
        item("g1", "gsm8k", 1, "ii"),
        item("g2", "gsm8k", None, "cc"),  # err 1/1, corr 1/1: F1 1
        item("m1", "math", 2, "ci"),
        item("m2", "math", None, "ic"),  # err 1/1, corr 0/1: F1 0
    ]
    rows = validity_table(with_reports(results), 0.5).to_json()["rows"]
    assert rows["gsm8k"]["PB F1"] == 1.0 and rows["math"]["PB F1"] == 0.0
    # pooled: err 2/2, corr 1/2 -> F1 2/3; the subsets' mean: (1 + 0) / 2
    assert rows["overall"]["PB F1"] == pytest.approx(2 / 3)
    mean_row = rows["subset mean"]
    assert (mean_row["n"], mean_row["err. acc"], mean_row["corr. acc"], mean_row["PB F1"]) == (
        4,
        1.0,
        0.5,
        0.5,
    )
    assert mean_row["sol. F1"] is None
    one_subset = validity_table(with_reports(results[:2]), 0.5).to_json()["rows"]
    assert "subset mean" not in one_subset
