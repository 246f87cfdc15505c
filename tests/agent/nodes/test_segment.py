"""`segment`: the steps as given, split offline, or by the model; a failed model call falls
back to the offline splitter and says so."""

from __future__ import annotations

from agent.nodes.segment import COVERAGE_WARN, segment
from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_ANSWERS, ARITHMETIC_SLIP_STEPS
from scoring.schema import GradeRequest
from tests.agent.nodes.conftest import call, llm_context, slip, state_before


def test_given_steps_are_kept_without_blanks(offline):
    request = GradeRequest(problem="p", solution_steps=[" 2x = 8 ", "  ", "x = 4"])
    assert call(segment, {"request": request}, offline) == {"steps": ["2x = 8", "x = 4"]}


def test_offline_the_solution_is_split_into_its_steps(offline):
    update = call(segment, state_before(segment, slip(), offline), offline)
    assert len(update["steps"]) == 3 and "47 + 58 = 95" in update["steps"][0]


def test_the_model_segments_and_a_thin_coverage_is_warned(offline):
    context, script = llm_context(offline)
    state = state_before(segment, slip(mode="llm"), context)
    update = call(segment, state, context)
    assert update["steps"] == ARITHMETIC_SLIP_STEPS and update["warnings"] == []
    assert [c.operation for c in script.calls if c.operation == "segmentation"]
    thin, _ = llm_context(offline, {**ARITHMETIC_SLIP_ANSWERS, "segmentation": {"steps": ["95"]}})
    warned = call(segment, state_before(segment, slip(mode="llm"), thin), thin)
    assert warned["steps"] == ["95"] and "cover only" in warned["warnings"][0]
    assert COVERAGE_WARN == 0.5


def test_a_fused_call_brings_the_labels_with_the_steps(offline):
    context, script = llm_context(offline)
    update = call(segment, state_before(segment, slip(mode="llm", fused=True), context), context)
    assert update["steps"] == ARITHMETIC_SLIP_STEPS
    assert [v.label for v in update["llm_verdicts"]] == ["incorrect", "meaningless", "incorrect"]
    assert "segmentation" not in {c.operation for c in script.calls}


def test_a_failed_segmentation_falls_back_offline_and_says_so(offline):
    broken, _ = llm_context(offline, {**ARITHMETIC_SLIP_ANSWERS, "segmentation": "no JSON here"})
    update = call(segment, state_before(segment, slip(mode="llm"), broken), broken)
    assert update["degraded"] is True and len(update["steps"]) == 3
    assert "degraded to the offline segmentation" in update["warnings"][0]
