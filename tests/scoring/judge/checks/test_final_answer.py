"""The answer check as a finding on the final step: right, wrong, wrong with no answer marked;
none for proofs, undecided verdicts and routes too imprecise to decide."""

import pytest

from scoring.judge.checks.final_answer import find_final_answer
from scoring.judge.input import JudgeInput
from scoring.verdict import AnswerVerdict

STEPS = ["$3 \\times 4 = 12$", "so there are 12 apples"]


def found(answer, problem_type="calculation", steps=STEPS):
    return find_final_answer(JudgeInput("", steps, problem_type, answer))


def test_a_right_answer_supports_the_last_step():
    [finding] = found(AnswerVerdict("12", ("12",), symbolic=True))
    assert (finding.kind, finding.step) == ("answer_correct", 1)
    assert finding.detail == "final answer 12 matches the reference"


def test_a_wrong_answer_refutes_the_last_step_and_names_every_reference():
    [finding] = found(AnswerVerdict("12", ("13", "13.0"), symbolic=False))
    assert (finding.kind, finding.step) == ("answer_wrong", 1)
    assert finding.detail == "final answer 12 does not match the reference 13 or 13.0"


def test_no_marked_answer_is_the_weaker_finding():
    [finding] = found(AnswerVerdict("12", ("13",), symbolic=False, anchored=False))
    assert finding.kind == "answer_unmarked_wrong"
    assert "closing lines" in finding.detail


@pytest.mark.parametrize(
    ("answer", "problem_type", "steps"),
    [
        (AnswerVerdict("12", ("13",), symbolic=False), "proof", STEPS),
        (AnswerVerdict(None, ()), "calculation", STEPS),  # nothing to compare with
        (AnswerVerdict("12", ("13",), symbolic=False), "calculation", []),
        (AnswerVerdict("12", ("13",), symbolic=False, route_decides=False), "calculation", STEPS),
    ],
)
def test_nothing_is_found_where_the_answer_decides_nothing(answer, problem_type, steps):
    assert found(answer, problem_type, steps) == []


def test_a_models_verdict_decides_where_the_route_does_not():
    answer = AnswerVerdict("12", ("13",), symbolic=False, llm=True, route_decides=False)
    assert [f.kind for f in found(answer)] == ["answer_correct"]
