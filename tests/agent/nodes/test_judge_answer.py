"""`judge_answer`: the model asked about the final answer only where the symbolic check did not
find it equal; its "equal" never overrules two different plain numbers."""

from __future__ import annotations

from agent.nodes.judge_answer import judge_answer
from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_ANSWERS
from scoring.schema import GradeRequest
from tests.agent.nodes.conftest import call, llm_context, slip, state_before

SAYS_EQUAL = {**ARITHMETIC_SLIP_ANSWERS, "answer_judgement": {"correct": True, "reason": "same"}}


def test_offline_or_without_a_reference_nothing_is_asked(offline):
    assert call(judge_answer, state_before(judge_answer, slip(), offline), offline) == {}
    context, script = llm_context(offline)
    no_reference = slip(mode="llm", reference_answer=None)
    assert call(judge_answer, state_before(judge_answer, no_reference, context), context) == {}
    assert "answer_judgement" not in {c.operation for c in script.calls}


def test_a_symbolic_equal_is_not_asked_about(offline):
    context, script = llm_context(offline, SAYS_EQUAL)
    right = GradeRequest(
        problem="What is 6 times 7?", solution="6 * 7 = 42", reference_answer="42", mode="llm"
    )
    assert call(judge_answer, state_before(judge_answer, right, context), context) == {}
    assert "answer_judgement" not in {c.operation for c in script.calls}


def test_the_models_verdict_is_recorded_beside_the_symbolic_one(offline):
    context, _ = llm_context(offline)
    update = call(judge_answer, state_before(judge_answer, slip(mode="llm"), context), context)
    answer = update["answer"]
    assert answer.llm is False and answer.llm_reason == "285 differs from 315"
    assert answer.correct is False


def test_an_equal_against_two_different_numbers_is_set_aside(offline):
    context, _ = llm_context(offline, SAYS_EQUAL)
    update = call(judge_answer, state_before(judge_answer, slip(mode="llm"), context), context)
    assert update["answer"].correct is False
    assert "set aside" in update["warnings"][0]


def test_a_failed_call_leaves_the_symbolic_check_alone(offline):
    broken, _ = llm_context(offline, {**ARITHMETIC_SLIP_ANSWERS, "answer_judgement": "??"})
    update = call(judge_answer, state_before(judge_answer, slip(mode="llm"), broken), broken)
    assert update["degraded"] is True and "answer" not in update
    assert "symbolic answer check alone" in update["warnings"][0]
