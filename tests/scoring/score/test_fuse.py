from dataclasses import replace

import pytest

from scoring.align.realign import AlignedGroup, Alignment
from scoring.schema import Meta
from scoring.score.fuse import GradeInputs, fuse
from scoring.score.tree import build_tree
from scoring.verdict import (
    AnswerVerdict,
    CheckNote,
    DifficultyVerdict,
    FirstErrorGuess,
    StepVerdict,
)

META = Meta(mode="offline")


def inputs(labels, answer_ok, deps=None, **kw):
    deps = deps or [[] for _ in labels]
    verdicts = [
        StepVerdict(lab, f"reason {i}", validity=0.9 if lab == "correct" else 0.1)
        for i, lab in enumerate(labels, 1)
    ]
    return GradeInputs(
        steps=[f"step {i}" for i in range(1, len(labels) + 1)],
        verdicts=verdicts,
        tree=build_tree(labels, deps),
        problem_type=kw.pop("problem_type", "calculation"),
        language="en",
        answer=AnswerVerdict("42", ("42",), symbolic=answer_ok),
        **kw,
    )


def test_clean_solution():
    report = fuse(inputs(["correct"] * 4, True), META)
    assert (report.score, report.score_binary, report.quadrant) == (10, 1, "robust")
    assert report.hcrs.score == 10.0 and report.holistic == 10.0
    assert report.reasoneval.validity == 0.9 and not report.lucky_guess


def test_lucky_guess_is_flagged():
    labels = ["incorrect", "meaningless", "meaningless", "correct"]
    report = fuse(inputs(labels, True, deps=[[], [1], [2], []]), META)
    # Eq. 1: 6 * 0/3 + 4 = 4; HCRS: base 2.5 - hazard 5 -> 0
    assert report.score == 4 and report.score_binary == 1
    assert report.hcrs.score == 0.0 and report.hcrs.first_error == 1
    assert report.lucky_guess and report.quadrant == "lucky_guess"
    assert report.error_tree.formatted == "(1)-(2)-(3)"
    assert report.holistic == pytest.approx(3.0)


def test_hallucination_needs_high_alignment_and_a_wrong_answer():
    al = Alignment(
        pairs=[AlignedGroup((0,), (0,), 0.95), AlignedGroup((1,), (1,), 0.9)],
        insertions=[],
        deletions=[],
        score=0.925,
        divergence_step=None,
        step_similarity=[0.95, 0.9],
        step_reference=[(0,), (1,)],
    )
    report = fuse(inputs(["correct", "incorrect"], False, alignment=al, skeleton_len=2), META)
    assert report.quadrant == "hallucination" and report.hallucination
    assert report.alignment.pairs[1].reference == [2] and report.alignment.pairs[1].solution == [2]
    assert report.steps[0].aligned_reference == [1] and report.steps[0].similarity == 0.95


def test_simple_problem_scores_the_answer_only():
    difficulty = DifficultyVerdict(1, False)
    report = fuse(inputs(["correct", "correct"], False, difficulty=difficulty), META)
    assert report.score == 0 and report.difficulty.process_evaluated is False


def test_tree_warnings_reach_meta():
    report = fuse(inputs(["meaningless", "correct"], True), META)
    assert report.steps[0].label == "correct"
    assert any("relabelled correct" in w for w in report.meta.warnings)
    assert "relabelled correct" in report.steps[0].reason


def test_both_policies_are_reported_and_the_request_picks_one():
    """One slip in step 1, the rest built on it: Eq. 1 gives 0 (StepMathAgent), follow-through
    credits the later work with its own worth."""
    labels = ["incorrect", "meaningless", "incorrect"]
    verdicts = [
        StepVerdict("incorrect", "47 + 58 = 95 is false", p_wrong=0.9, state="fails"),
        StepVerdict("meaningless", "uses step 1", p_wrong=0.1, follow_credit=0.9),
        StepVerdict("incorrect", "carries step 1", p_wrong=0.8, state="fails", follow_credit=0.7),
    ]
    base = inputs(labels, False, deps=[[], [1], [2]])
    stepmath = fuse(replace(base, verdicts=verdicts), META)
    assert stepmath.scoring_policy == "stepmath" and stepmath.score == 0
    assert stepmath.scores["follow_through"].raw == pytest.approx(6 * 0.9 / 2 + 4 * 0.7)
    assert "One error, in step 1. Later work (steps 2-3) builds on it" in stepmath.summary
    follow = fuse(replace(base, verdicts=verdicts, policy="follow_through"), META)
    assert follow.score == 6 and follow.scores == stepmath.scores
    assert follow.score_expected > stepmath.score_expected  # step 2 counts under follow-through


def test_the_report_carries_states_checks_and_the_likely_first_error():
    note = CheckNote("calculation_false", "error", "symbolic", "2 + 2 = 5 is false (4)", True)
    verdicts = [
        StepVerdict(
            "incorrect",
            "2 + 2 = 5 is false (4)",
            ("symbolic",),
            p_wrong=0.9,
            state="fails",
            checks=(note,),
        ),
        StepVerdict("unchecked", "not checked", p_wrong=0.2),
    ]
    report = fuse(
        replace(
            inputs(["incorrect", "unchecked"], None),
            verdicts=verdicts,
            first_error=FirstErrorGuess(0, 0.9),
        ),
        META,
    )
    assert [s.state for s in report.steps] == ["fails", "unchecked"]
    assert report.steps[0].checks[0].detail == "2 + 2 = 5 is false (4)"
    assert report.steps[0].checks[0].decisive and report.steps[1].checks == []
    assert report.likely_first_error.step == 1
    assert report.likely_first_error.probability == pytest.approx(0.9)
    assert report.score_raw == pytest.approx(6 * 0 + 4 * 0.8)
