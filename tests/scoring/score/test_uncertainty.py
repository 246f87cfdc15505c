"""The score interval and the review flags: hand-written cells and grades, and a proof by
example fused into a real offline GradeReport."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from scoring.schema import Meta, StepLabel
from scoring.score.features import GradeFeatures, features_of
from scoring.score.fuse import GradeInputs, fuse
from scoring.score.interval import (
    DEFAULT_PATH,
    Cell,
    UncertaintyError,
    UncertaintyModel,
    load_uncertainty,
    score_interval,
)
from scoring.score.tree import build_tree
from scoring.score.uncertainty import assess
from scoring.verdict import AnswerVerdict, StepVerdict

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


def proof_by_example() -> GradeInputs:
    """A proof by example: every step looks right to the offline checks."""
    steps = [
        "Let a = 3 and b = 5.",
        "Then a + b = 8, which is even.",
        "Therefore the sum of any two odd integers is even.",
    ]
    labels: list[StepLabel] = ["correct"] * 3
    return GradeInputs(
        steps=steps,
        verdicts=[StepVerdict("correct", "ok", validity=0.9) for _ in steps],
        tree=build_tree(labels, [[], [1], [2]]),
        problem_type="proof",
        language="en",
        answer=AnswerVerdict(None, (), symbolic=None),
    )


def test_a_proof_graded_offline_is_flagged_with_its_stable_code() -> None:
    report = fuse(proof_by_example(), Meta(mode="offline"))
    assert report.score == 10  # the grade itself is fooled ...
    review = assess(features_of(report), MODEL)
    assert review.needs_review  # ... and says it cannot see the logic
    assert review.reasons[0][0] == "proof_without_model"
    assert review.score_interval[0] <= 10 == review.score_interval[1]


def test_a_proof_whose_steps_a_model_judged_is_not_flagged_for_it() -> None:
    review = assess(
        features(
            problem_type="proof",
            verdict="none",
            has_reference=False,
            mode="llm",
            step_logic_checked=True,
            score=9,
        ),
        MODEL,
    )
    assert "proof_without_model" not in [code for code, _ in review.reasons]


@pytest.mark.parametrize("score", range(11))
@pytest.mark.parametrize("verdict", ["right", "wrong", "none"])
def test_the_interval_contains_the_score_within_0_to_10(score: int, verdict: str) -> None:
    lo, hi = score_interval(features(verdict=verdict, score=score), MODEL)
    assert 0 <= lo <= score <= hi <= 10


def test_hand_computed_intervals() -> None:
    # right: [10 - 1, 10 + 0] = [9, 10]
    assert score_interval(features(score=10), MODEL) == (9, 10)
    # wrong, score 3 = centre: spread 1 -> [3 - 2, 3 + 1.5] = [1, 4] (inward to integers)
    assert score_interval(features(verdict="wrong", score=3), MODEL) == (1, 4)
    # wrong, score 7: spread 1 + 4 = 5 -> [3 - 10, 3 + 7.5] -> [0, 10]
    assert score_interval(features(verdict="wrong", score=7), MODEL) == (0, 10)
    # no verdict: no such cell, the pooled one: [5 - 2, 5 + 2]
    assert score_interval(features(verdict="none", score=5), MODEL) == (3, 7)


def test_a_group_with_wider_residuals_gets_a_wider_interval() -> None:
    right = score_interval(features(score=9), MODEL)
    wrong = score_interval(features(verdict="wrong", score=9), MODEL)
    assert wrong[1] - wrong[0] > right[1] - right[0]
    assert "wide_interval" in [
        c for c, _ in assess(features(verdict="wrong", score=7), MODEL).reasons
    ]
    assert not assess(features(verdict="wrong", score=3), MODEL).needs_review


@pytest.mark.parametrize(
    ("kw", "code"),
    [
        ({"problem_type": "open_ended", "verdict": "none"}, "open_ended_without_model"),
        ({"answer_read": False, "verdict": "none"}, "answer_unparsed"),
        ({"has_reference": False, "verdict": "none", "score": 5}, "answer_unchecked"),
        ({"route_precision": 0.6}, "answer_weak_reading"),
        ({"score": 6, "wrong_steps": 1}, "steps_against_answer"),
        ({"unconfirmed_finding": True}, "unconfirmed_finding"),
        ({"problem_type": "proof", "examples_only": True}, "proof_by_example"),
        ({"degraded": True, "mode": "llm"}, "degraded"),
        ({"failed_checks": ("alignment",)}, "checks_failed"),
    ],
)
def test_each_reason_code(kw: dict[str, object], code: str) -> None:
    review = assess(features(**kw), MODEL)
    assert review.needs_review and code in [c for c, _ in review.reasons]


def test_steps_labelled_against_a_right_answer_span_both_readings() -> None:
    # a right-answer cell whose interval is the score itself, as the shipped one is
    narrow = UncertaintyModel(
        "narrow",
        0.8,
        {
            **CELLS,
            "right": Cell(
                n=50, intercept=0.0, slope=1.0, spread0=0.5, spread1=0.0, q_lo=0.0, q_hi=0.0
            ),
        },
        5,
    )
    assert score_interval(features(score=10), narrow) == (10, 10)
    assert score_interval(features(score=4, wrong_steps=1), narrow) == (4, 10)
    # below 10 only through unchecked steps' expected points: no step is labelled against it
    assert score_interval(features(score=9), narrow) == (9, 9)
    # a model judged the steps: its word against the answer is read by the LLM-mode cells
    llm = features(score=4, mode="llm", step_logic_checked=True, wrong_steps=1)
    assert score_interval(llm, narrow) == (4, 4)
    assert "steps_against_answer" not in [c for c, _ in assess(llm, narrow).reasons]


def test_an_answer_nobody_checked_may_be_right() -> None:
    unchecked = features(has_reference=False, verdict="none", score=4)
    assert score_interval(unchecked, MODEL)[1] == 10
    assert "answer_unchecked" in [c for c, _ in assess(unchecked, MODEL).reasons]
    # an answer read against a reference and found wrong is not widened
    assert score_interval(features(verdict="wrong", score=3), MODEL) == (1, 4)


@pytest.mark.parametrize(
    ("score", "expected", "interval"),
    [(3, 3.0, (1, 4)), (3, 5.9, (1, 6)), (3, 0.4, (0, 4)), (0, 5.89, (0, 9))],
)
def test_the_interval_holds_the_score_and_the_expected_score(score, expected, interval) -> None:
    """The report's point estimates never contradict its interval: a grade of 0 whose expected
    score is 5.89 does not read [0, 4]."""
    found = score_interval(features(verdict="wrong", score=score, score_expected=expected), MODEL)
    assert found == interval and found[0] <= score <= found[1]
    assert found[0] <= expected <= found[1]


def test_a_sure_right_answer_is_not_flagged() -> None:
    review = assess(features(), MODEL)
    assert not review.needs_review and review.reasons == ()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("cells"), "malformed"),
        (lambda d: d["cells"].pop("all"), "pooled cell 'all'"),
        (lambda d: d["cells"].update(bogus=d["cells"]["all"]), "unknown cells"),
        (lambda d: d["cells"]["all"].update(q_lo=3.0, q_hi=1.0), "q_lo"),
        (lambda d: d["cells"]["all"].update(spread0=0.0), "spread0"),
        (lambda d: d["cells"]["all"].update(q_hi=float("nan")), "finite"),
        (lambda d: d.update(coverage=1.5), "coverage"),
        (lambda d: d.update(format=99), "refit"),
        (lambda d: d.update(llm_cells={"right": d["cells"]["right"]}), "LLM-mode statistics"),
        (
            lambda d: d.update(llm_cells={"all": d["cells"]["all"], "bogus": d["cells"]["all"]}),
            "unknown cells",
        ),
    ],
)
def test_bad_statistics_fail_clearly(tmp_path: Path, change, message: str) -> None:
    data = json.loads(json.dumps(MODEL.to_json()))
    change(data)
    path = tmp_path / "u.json"
    path.write_text(json.dumps(_calibration_with(data)), encoding="utf-8")
    with pytest.raises(UncertaintyError, match=message):
        load_uncertainty(path)


def _calibration_with(section: object) -> dict[str, object]:
    """A minimal calibration file holding `section` as its uncertainty statistics."""
    return {
        "version": "1-t",
        "models": {"en": {"weights": {}, "threshold": 0.5}},
        "kinds": {},
        "uncertainty": section,
    }


def test_unreadable_statistics_fail_clearly(tmp_path: Path) -> None:
    path = tmp_path / "u.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(UncertaintyError, match="cannot read"):
        load_uncertainty(path)
    with pytest.raises(UncertaintyError, match="cannot read"):
        load_uncertainty(tmp_path / "missing.json")
    bare = tmp_path / "bare.json"
    bare.write_text(
        json.dumps({k: v for k, v in _calibration_with(None).items() if k != "uncertainty"}),
        encoding="utf-8",
    )
    with pytest.raises(UncertaintyError, match="no 'uncertainty' section"):
        load_uncertainty(bare)


def test_the_statistics_round_trip_and_the_shipped_file_loads() -> None:
    assert UncertaintyModel.from_json(MODEL.to_json()) == MODEL
    shipped = load_uncertainty(DEFAULT_PATH)  # the calibration file's section
    assert "all" in shipped.cells and shipped.coverage == 0.8


def test_a_grade_whose_steps_a_model_judged_reads_the_llm_mode_cells() -> None:
    # LLM-mode right answers: humans may give less than the grade (a model's false alarm, a
    # miss), so the interval reaches below 10; offline right answers keep their own cell.
    llm = {
        "all": Cell(n=100, intercept=0.0, slope=1.0, spread0=1.0, spread1=0.0, q_lo=-3.0, q_hi=1.0)
    }
    model = replace(MODEL, llm_cells=llm)
    judged = features(mode="llm", step_logic_checked=True)
    assert score_interval(judged, model) == (7, 10)  # 'right' borrows the LLM 'all' cell
    assert score_interval(judged, MODEL) == (9, 10)  # no LLM cells: the offline ones
    assert score_interval(features(), model) == (9, 10)
    degraded = features(mode="llm", step_logic_checked=False, degraded=True)
    assert score_interval(degraded, model) == (9, 10)  # fell back to the offline checks
    assert UncertaintyModel.from_json(model.to_json()) == model
