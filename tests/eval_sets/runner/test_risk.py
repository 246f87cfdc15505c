"""Risk against coverage on hand-made reports (no dev rows): every figure worked out below."""

from __future__ import annotations

import json
import math
from itertools import count
from pathlib import Path

import pytest

from eval_sets.halves import Half, half_of
from eval_sets.items import Gold
from eval_sets.metrics.risk import RiskPoint
from eval_sets.runner.bench import write_summary
from eval_sets.runner.figures import draw_all
from eval_sets.runner.graded import with_reports
from eval_sets.runner.risk import figure_interval_table, review_table, risk_curves, step_ece_table
from eval_sets.runner.store import ItemResult
from eval_sets.runner.summary import summarise
from scoring.schema import GradeReport, GradeRequest, ProblemType
from tests.eval_sets.conftest import rows_of

_numbers = count()


def problem_in(half: Half) -> str:
    """A fresh problem text that falls in `half` (the split hashes the text)."""
    while True:
        text = f"Compute {next(_numbers)} + 1."
        if half_of(text) == half:
            return text


def item(
    half: Half,
    kind: ProblemType,
    correct: bool | None,
    score: int,
    human: int,
    interval: tuple[int, int] | None,
    flagged: bool,
    steps: list[tuple[float, str]],
) -> ItemResult:
    """One graded item: `steps` are (p_wrong, human label c/i) on the graded segmentation."""
    problem = problem_in(half)
    texts = [f"step {i}" for i in range(1, len(steps) + 1)]
    report = GradeReport.model_validate(
        {
            "score": score,
            "score_raw": float(score),
            "score_binary": int(score >= 6),
            "problem_type": kind,
            "language": "en",
            "steps": [
                {
                    "index": i,
                    "text": t,
                    "label": "correct",
                    "reason": "",
                    "validity": 1 - p,
                    "redundancy": 0.0,
                    "p_wrong": p,
                }
                for i, (t, (p, _)) in enumerate(zip(texts, steps), 1)
            ],
            "error_tree": {},
            "answer": {"correct": correct},
            "hcrs": {"score": 5.0, "base": 5.0, "format_penalty": 0.0, "hazard_penalty": 0.0},
            "reasoneval": {"validity": 1.0, "redundancy": 0.0},
            "holistic": 5.0,
            "quadrant": "robust",
            "lucky_guess": False,
            "hallucination": False,
            "score_interval": interval,
            "needs_review": flagged,
            "review_reasons": [{"code": "wide_interval", "message": "wide"}] if flagged else [],
            "meta": {"mode": "offline"},
        }
    )
    request = GradeRequest(problem=problem, solution_steps=texts, problem_type=kind, mode="offline")
    labels = tuple("incorrect" if lab == "i" else "correct" for _, lab in steps)
    gold = Gold(subset=kind, score=human, step_labels=labels)
    return ItemResult(id=problem, gold=gold, request=request, report=report)


@pytest.fixture(scope="module")
def results() -> list[ItemResult]:
    return [
        # fit: two right answers, two wrong, one proof
        item("fit", "calculation", True, 10, 10, (10, 10), False, [(0.05, "c"), (0.05, "c")]),
        item("fit", "calculation", True, 10, 8, (9, 10), False, [(0.05, "c"), (0.15, "i")]),
        item("fit", "calculation", False, 4, 6, (2, 7), False, [(0.1, "c"), (0.9, "i")]),
        item("fit", "calculation", False, 2, 6, (0, 5), True, [(0.95, "i"), (0.85, "i")]),
        item("fit", "proof", None, 10, 4, (6, 10), True, [(0.25, "c"), (0.25, "i")]),
        # check: one right answer
        item("check", "calculation", True, 10, 10, (10, 10), False, [(0.02, "c")]),
    ]


def test_review_table_by_hand(results) -> None:
    rows = rows_of(review_table(with_reports(results)))
    fit = rows["fit: all"]
    assert fit["items"] == 5
    assert fit["flagged"] == pytest.approx(2 / 5)
    # not flagged: (10, 10), (10, 8), (4, 6): dx 2, 2, -4; dy 2, 0, -2 -> 12 / sqrt(24 * 8)
    assert fit["Corr unflagged"] == pytest.approx(100 * 12 / math.sqrt(24 * 8))
    assert fit["MAE unflagged"] == pytest.approx(4 / 3)
    assert fit["MAE all"] == pytest.approx((0 + 2 + 2 + 4 + 6) / 5)
    # inside: 10 in [10, 10], 6 in [2, 7]; not: 8, 6 (in [0, 5]), 4 (in [6, 10]); widths 0 1 5 5 4
    assert fit["coverage"] == pytest.approx(2 / 5)
    assert fit["width"] == pytest.approx(15 / 5)
    wrong = rows["fit: answer wrong"]
    assert (wrong["items"], wrong["flagged"], wrong["MAE unflagged"]) == (2, 0.5, 2.0)
    assert wrong["Corr unflagged"] is None  # one grade kept: no correlation
    assert (wrong["coverage"], wrong["width"]) == (0.5, 5.0)
    proof = rows["fit: proof"]
    assert (proof["flagged"], proof["MAE unflagged"], proof["coverage"]) == (1.0, None, 0.0)
    assert rows["fit: answer right"]["Corr all"] is None  # a constant score
    assert rows["check: all"] == {
        "items": 1,
        "flagged": 0.0,
        "Corr unflagged": None,
        "MAE unflagged": 0.0,
        "Corr all": None,
        "MAE all": 0.0,
        "coverage": 1.0,
        "width": 0.0,
    }
    assert "fit: open-ended" not in rows and "check: proof" not in rows


def test_grades_without_an_interval_are_left_out_of_coverage_only(results) -> None:
    bare = item("check", "calculation", False, 3, 9, None, False, [(0.5, "i")])
    rows = rows_of(table := review_table(with_reports([*results, bare])))
    check = rows["check: all"]
    assert (check["items"], check["MAE all"]) == (2, 3.0)
    assert (check["coverage"], check["width"]) == (1.0, 0.0)
    assert "1 grade(s) carry no interval" in table.note


def test_step_ece_by_hand(results) -> None:
    rows = rows_of(step_ece_table(with_reports(results)))
    # fit steps (p, wrong): bin 0.0-0.1: .05 F x3; 0.1-0.2: .15 T, .1 F; 0.2-0.3: .25 F, .25 T;
    # 0.8-0.9: .85 T; 0.9-1.0: .9 T, .95 T
    # ECE = (3 * .05 + 2 * .375 + 2 * .25 + 1 * .15 + 2 * .075) / 10
    fit = rows["fit en: all"]
    assert fit["steps"] == 10
    assert fit["ECE"] == pytest.approx(1.7 / 10)
    assert fit["wrong rate"] == pytest.approx(5 / 10)
    assert rows["fit en: bin 0.1-0.2"] == {
        "bin": "0.1-0.2",
        "steps": 2,
        "mean P(wrong)": pytest.approx(0.125),
        "wrong rate": 0.5,
        "ECE": None,
    }
    # proof alone: mean .25 against a wrong rate .5
    assert rows["fit en: proof"]["ECE"] == pytest.approx(0.25)
    assert rows["check en: all"]["ECE"] == pytest.approx(0.02)


def test_step_ece_needs_the_graded_steps_to_be_the_labelled_ones(results) -> None:
    extra = results[0].report.steps + results[0].report.steps  # four steps, two labels
    shifted = ItemResult(
        id="x",
        gold=results[0].gold,
        request=results[0].request,
        report=results[0].report.model_copy(update={"steps": extra}),
    )
    assert step_ece_table(with_reports([shifted])) is None
    free = results[0].request.model_copy(
        update={"solution": "step 1\nstep 2", "solution_steps": None}
    )
    resegmented = ItemResult(id="y", gold=results[0].gold, request=free, report=results[0].report)
    assert step_ece_table(with_reports([resegmented])) is None  # same count, not the same steps


def test_risk_coverage_by_hand(results) -> None:
    fit, check = risk_curves(with_reports(results))
    # widths 0 1 5 5 4, errors 0 2 2 4 6: kept narrowest first, a point per width
    assert fit.points == (
        RiskPoint(0, 1, 0.2, 0.0),
        RiskPoint(1, 2, 0.4, 1.0),
        RiskPoint(4, 3, 0.6, pytest.approx(8 / 3)),
        RiskPoint(5, 5, 1.0, 2.8),
    )
    assert fit.operating == pytest.approx((0.6, 4 / 3))
    assert check.points == (RiskPoint(0, 1, 1.0, 0.0),) and check.operating == (1.0, 0.0)


def test_figure_intervals_by_hand(results) -> None:
    graded = with_reports(results)
    table = figure_interval_table(graded)
    rows = rows_of(table)
    review = rows_of(review_table(graded))
    fit = rows["fit: coverage"]
    # the figures are the review table's, over the fit half's five problems
    assert fit["value"] == review["fit: all"]["coverage"] == pytest.approx(2 / 5)
    assert fit["problems"] == 5 and fit["low"] <= fit["value"] <= fit["high"]
    assert rows["fit: unflagged"]["value"] == pytest.approx(3 / 5)
    assert rows["fit: MAE unflagged"]["value"] == pytest.approx(review["fit: all"]["MAE unflagged"])
    assert rows["fit: Corr unflagged"]["value"] == pytest.approx(
        review["fit: all"]["Corr unflagged"]
    )
    # two right answers of two problems, one covered ([10, 10] holds 10), one not ([9, 10] and 8):
    # either problem drawn twice reads 1 or 0
    right = rows["fit: coverage, answer right"]
    assert (right["value"], right["low"], right["high"]) == (0.5, 0.0, 1.0)
    # calculations as a whole: the two right answers and the two wrong ones (one covered)
    assert rows["fit: coverage, calculation"]["value"] == pytest.approx(2 / 4)
    assert [name for name in rows if name.startswith("fit: coverage, ")] == [
        "fit: coverage, calculation",
        "fit: coverage, answer right",
        "fit: coverage, answer wrong",
        "fit: coverage, proof",
    ]
    # step ECE: its interval and the range a calibrated P(wrong) reads on the same ten steps
    ece = rows["fit: step ECE en"]
    assert ece["value"] == pytest.approx(0.17) and ece["problems"] == 5
    assert 0 <= ece["calibrated low"] <= ece["calibrated median"] <= ece["calibrated high"]
    assert ece["low"] is not None and ece["low"] <= ece["high"]
    # the check half holds one problem: its figures have no interval
    assert rows["check: coverage"] == {
        "value": 1.0,
        "low": None,
        "high": None,
        "problems": 1,
        "calibrated median": None,
        "calibrated low": None,
        "calibrated high": None,
    }
    # undefined figures (Corr of one kept grade) are left out, not printed as nan
    assert "check: Corr unflagged" not in rows


def test_summary_has_the_new_tables_and_the_figure(results, tmp_path: Path) -> None:
    tables = summarise(results)
    keys = [t.key for t in tables]
    assert {"review", "step_ece", "figure_intervals"} <= set(keys)
    figures = draw_all(results, tmp_path)
    assert tmp_path / "risk_coverage.png" in figures
    assert (tmp_path / "risk_coverage.png").read_bytes()[:4] == b"\x89PNG"
    write_summary(tmp_path, "hand", tables, figures)
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["tables"]["review"]["rows"]["fit: all"]["flagged"] == pytest.approx(0.4)
    assert summary["tables"]["step_ece"]["rows"]["fit en: all"]["ECE"] == pytest.approx(0.17)
    md = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert "| fit: all | 5 | 0.400 | 86.603 | 1.333 |" in md
    assert "![risk_coverage](risk_coverage.png)" in md
    assert "fit: answer wrong & 2 & 0.500" in (tmp_path / "summary.tex").read_text(encoding="utf-8")


def test_sets_without_gold_scores_have_no_review_table(results) -> None:
    no_gold = [
        ItemResult(id=r.id, gold=Gold(), request=r.request, report=r.report) for r in results
    ]
    assert review_table(with_reports(no_gold)) is None and risk_curves(with_reports(no_gold)) == []


def test_step_ece_on_first_error_sets_follows_reasoneval(results) -> None:
    """MR-MATH / ProcessBench gold: steps before the first error right, it wrong, later ones out."""
    base = item(
        "fit", "calculation", False, 3, 3, (2, 4), False, [(0.2, "c"), (0.6, "c"), (0.9, "c")]
    )
    wrong = ItemResult(
        id="w",
        gold=Gold(process_correct=False, first_error=2),
        request=base.request,
        report=base.report,
    )
    valid = ItemResult(
        id="v",
        gold=Gold(process_correct=True),
        request=base.request,
        report=base.report.model_copy(update={"steps": base.report.steps[:1]}),
    )
    valid = ItemResult(
        id="v",
        gold=valid.gold,
        request=base.request.model_copy(update={"solution_steps": ["step 1"]}),
        report=valid.report,
    )
    rows = rows_of(step_ece_table(with_reports([wrong, valid])))
    # (0.2, F), (0.6, T) from the wrong one, (0.2, F) from the valid one; 0.9 is after the error
    assert rows["fit en: all"]["steps"] == 3
    assert rows["fit en: all"]["ECE"] == pytest.approx((2 * 0.2 + 1 * 0.4) / 3)
    assert review_table(with_reports([wrong, valid])) is None  # no gold scores


def test_a_calculation_without_a_verdict_is_its_own_group(results) -> None:
    unread = item("fit", "calculation", None, 5, 7, (3, 8), True, [(0.3, "c")])
    rows = rows_of(review_table(with_reports([*results, unread])))
    assert rows["fit: no verdict"]["items"] == 1
    assert rows["fit: answer wrong"]["items"] == 2 and rows["fit: all"]["items"] == 6
