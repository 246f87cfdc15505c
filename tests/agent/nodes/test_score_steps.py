"""`score_steps`: the model's verdicts (one call, the fused call's, or the parts joined), or
none offline, when `verify` decides from the evidence alone."""

from __future__ import annotations

import pytest

from agent.nodes.score_steps import score_steps
from agent.state import ChunkVerdicts
from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_ANSWERS
from scoring.verdict import StepVerdict
from tests.agent.nodes.conftest import call, llm_context, slip, state_before


def test_offline_there_is_nothing_to_ask(offline):
    state = state_before(score_steps, slip(), offline)
    assert call(score_steps, state, offline) == {"judged_by": "offline"}


def test_the_model_labels_every_step(offline):
    context, _ = llm_context(offline)
    update = call(score_steps, state_before(score_steps, slip(mode="llm"), context), context)
    assert update["judged_by"] == "llm"
    assert [v.label for v in update["verdicts"]] == ["incorrect", "meaningless", "incorrect"]


def test_a_fused_grade_takes_the_labels_that_came_with_the_steps(offline):
    context, script = llm_context(offline)
    state = state_before(score_steps, slip(mode="llm", fused=True), context)
    asked = len(script.calls)
    update = call(score_steps, state, context)
    assert update["verdicts"] == state["llm_verdicts"] and len(script.calls) == asked
    failed = {**state, "llm_verdicts": None}  # the fused call failed: no second call
    assert call(score_steps, failed, context) == {"judged_by": "offline"}
    assert len(script.calls) == asked


def test_a_failed_judgement_leaves_verify_to_decide_and_says_so(offline):
    broken, _ = llm_context(offline, {**ARITHMETIC_SLIP_ANSWERS, "step_judgement": "no JSON"})
    update = call(score_steps, state_before(score_steps, slip(mode="llm"), broken), broken)
    assert update["judged_by"] == "offline" and update["degraded"] is True
    assert "degraded to the offline judge" in update["warnings"][0]


def test_parts_are_joined_in_order_and_must_cover_every_step(offline):
    state = state_before(score_steps, slip(), offline)
    one, two = StepVerdict("correct", "a"), StepVerdict("incorrect", "b")
    chunks = [ChunkVerdicts(3, [None], False), ChunkVerdicts(1, [one, two], True)]
    update = call(score_steps, {**state, "chunks": chunks}, offline)
    assert update == {"verdicts": [one, two, None], "judged_by": "llm"}
    failed = [ChunkVerdicts(1, [None, None, None], False)]
    assert call(score_steps, {**state, "chunks": failed}, offline)["judged_by"] == "offline"
    with pytest.raises(RuntimeError, match="cover 2 of 3 steps"):
        call(score_steps, {**state, "chunks": [ChunkVerdicts(1, [one, two], True)]}, offline)
