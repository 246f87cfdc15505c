"""The grade in plain words: what a teacher reads first."""

import pytest

from scoring.score.summary import SummaryInput, plain_summary


def summary(
    labels,
    language="en",
    answer=True,
    reference=True,
    policy="stepmath",
    scores=None,
    carried=(),
    problem_type="calculation",
    evaluated=True,
):
    return plain_summary(
        SummaryInput(
            labels,
            problem_type,
            language,
            answer,
            reference,
            policy,
            scores or {"stepmath": 10, "follow_through": 10},
            evaluated,
            carried,
        )
    )


def test_one_slip_and_later_work_that_follows_from_it():
    text = summary(
        ["incorrect", "meaningless", "meaningless", "incorrect"],
        answer=False,
        scores={"stepmath": 0, "follow_through": 7},
        carried=[False, False, False, True],
    )
    assert text == (
        "One error, in step 1. Later work (steps 2-4) builds on it and otherwise "
        "follows correctly. The final answer does not match the reference. Score 0 "
        "without credit for work built on an error; 7 with follow-through credit."
    )


def test_every_step_checked_and_the_answer_right():
    assert summary(["correct", "correct"]) == (
        "Every step checks out. The final answer matches the reference."
    )


def test_unchecked_steps_are_named_and_counted_at_their_expected_value():
    text = summary(["unchecked", "correct", "unchecked"], reference=False, answer=None)
    assert text.startswith(
        "No check found an error. 2 of 3 steps could not be checked "
        "(steps 1 and 3); each counts at its expected value."
    )
    assert text.endswith("No reference answer was given, so the final answer was not checked.")


def test_a_proof_says_nothing_of_an_answer_and_the_policy_followed_comes_first():
    text = summary(
        ["correct", "incorrect", "meaningless"],
        problem_type="proof",
        answer=None,
        policy="follow_through",
        scores={"stepmath": 3, "follow_through": 7},
    )
    assert "final answer" not in text
    assert text.endswith(
        "Score 7 with follow-through credit; 3 without credit for work built on an error."
    )


@pytest.mark.parametrize(
    ("language", "empty"), [("en", "No solution was handed in."), ("zh", "未提交解答。")]
)
def test_an_empty_solution(language, empty):
    assert summary([], language) == empty


def test_chinese():
    text = summary(
        ["incorrect", "meaningless", "unchecked"],
        "zh",
        answer=False,
        scores={"stepmath": 1, "follow_through": 5},
    )
    assert text.startswith(
        "第1步有错误。第2步建立在错误结果之上，其余推理正确。3步中有1步无法核对（第3步）"
    )
    assert "最终答案与参考答案不一致。" in text


def test_a_simple_problem_grades_the_answer_alone():
    assert summary(["correct"], evaluated=False).startswith(
        "A simple problem: only the final answer was graded."
    )
