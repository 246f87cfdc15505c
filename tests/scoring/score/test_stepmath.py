import json

import pytest

from scoring.score.stepmath import (
    expected_score,
    parse_human_label,
    score_solution,
    simple_problem_score,
    stepmath_raw,
    stepmath_score,
)

C, I, M, R = "correct", "incorrect", "meaningless", "redundant"
TYPES = {"Calculation": "calculation", "Proof": "proof", "Open-ended": "open_ended"}


@pytest.mark.parametrize(
    ("labels", "problem_type", "raw", "score", "binary"),
    [
        ([C, C, C, C], "calculation", 10.0, 10, 1),
        ([C, C, C, I], "calculation", 6.0, 6, 0),
        ([I, C, C, C], "calculation", 8.0, 8, 1),
        ([C, I, M, C], "calculation", 6.0, 6, 1),  # 6 * 1/3 + 4 = 6
        ([C, I, C, C, I], "calculation", 4.5, 4, 0),  # half to even: round(4.5) == 4
        ([C, C, I, I, C, C, C, I], "calculation", 6 * 5 / 7, 4, 0),
        ([C], "calculation", 10.0, 10, 1),
        ([I], "calculation", 0.0, 0, 0),
        ([C, C, C, C, I, I], "proof", 10 * 4 / 6, 7, 1),
        ([C, I, I, C], "open_ended", 5.0, 5, 0),  # G > 5 for binary; 5 is not
        ([C, R, C], "proof", 10.0, 10, 1),
    ],
)
def test_eq1_by_hand(labels, problem_type, raw, score, binary):
    result = score_solution(labels, problem_type)
    assert result.raw == pytest.approx(raw)
    assert (result.score, result.binary) == (score, binary)
    assert stepmath_score(labels, problem_type) == score


def test_simplicity_module_makes_redundant_cost():
    assert stepmath_score([C, R, C], "proof") == 10
    assert stepmath_score([C, R, C], "proof", simplicity=True) == 7


def test_simple_problem_follows_answer():
    assert simple_problem_score(True).score == 10
    assert simple_problem_score(False).score == 0
    assert simple_problem_score(None).binary == 0


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="at least one step"):
        stepmath_raw([], "calculation")
    with pytest.raises(ValueError, match="unknown step label"):
        score_solution(["right"], "calculation")  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("raw", "label"),
    [
        ("1", C),
        ("0", I),
        (1, C),
        (0, I),
        ("1(0)", M),
        ("1(0) ", M),
        ("1（0）", M),
        (" 1 ( 0 ) ", M),
        ("1(1)", C),
    ],
)
def test_human_labels(raw, label):
    assert parse_human_label(raw) == label


@pytest.mark.parametrize("raw", ["2", "", "yes", "1(", "0(0)x"])
def test_human_labels_refuse_garbage(raw):
    with pytest.raises(ValueError):
        parse_human_label(raw)


def test_every_stepmathbench_dev_item_reproduces_its_gold_scores(shared_data):
    rows = [
        json.loads(line)
        for line in (shared_data / "stepmathbench_dev.jsonl").open(encoding="utf-8")
    ]
    assert rows
    mismatches = []
    for row in rows:
        labels = [parse_human_label(s) for s in row["gold_step_score"]]
        result = score_solution(labels, TYPES[row["type"]])
        if (result.score, result.binary) != (row["gold_score"], row["gold_score_01"]):
            mismatches.append(row["uid"])
    assert mismatches == []


U = "unchecked"


@pytest.mark.parametrize(
    ("labels", "p_wrong", "problem_type", "raw"),
    [
        ([U, U, C], [0.1, 0.3, None], "calculation", 6 * (0.9 + 0.7) / 2 + 4),
        ([C, U, I], [None, 0.5, None], "calculation", 6 * 1.5 / 2),
        ([U, U, U, U], [0.2, 0.2, 0.2, 0.2], "proof", 8.0),
        ([U], [0.25], "calculation", 7.5),
    ],
)
def test_an_unchecked_step_earns_its_expected_point(labels, p_wrong, problem_type, raw):
    result = score_solution(labels, problem_type, p_wrong=p_wrong)
    assert result.raw == pytest.approx(raw)
    assert result.score == round(raw)


def test_an_unchecked_step_needs_its_probability():
    with pytest.raises(ValueError, match="step 2 is unchecked and has no P\\(wrong\\)"):
        score_solution([C, U], "calculation", p_wrong=[None, None])


def test_follow_through_credits_work_built_on_an_error():
    """One slip in step 1 and everything after it built on it: StepMathAgent gives the later
    steps nothing; follow-through gives each its own credit (1 unless a step says otherwise)."""
    labels = [I, M, M, I]
    assert score_solution(labels, "calculation").score == 0
    credit = [None, None, 0.75, 1.0]  # a meaningless step nobody checked; a carried final answer
    follow = score_solution(labels, "calculation", policy="follow_through", own=credit)
    assert follow.raw == pytest.approx(6 * (0 + 1 + 0.75) / 3 + 4 * 1.0)
    assert follow.binary == 1
    # a step wrong in itself earns nothing under either policy
    assert score_solution([I, C], "calculation", policy="follow_through").raw == pytest.approx(4.0)


def test_the_expected_score_follows_the_policy():
    p = [0.5, 0.1, 0.1]
    assert expected_score(p, "proof") == pytest.approx(10 * (0.5 + 0.9 + 0.9) / 3)
    # under StepMathAgent's policy a step built on a step labelled wrong earns nothing
    assert expected_score(p, "proof", [I, M, C]) == pytest.approx(10 * (0.5 + 0 + 0.9) / 3)
    assert expected_score(p, "proof", [I, M, C], "follow_through") == pytest.approx(
        10 * (0.5 + 0.9 + 0.9) / 3
    )
