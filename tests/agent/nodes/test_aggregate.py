"""`aggregate`: the report from every part, with the versions it was made with, the contained
failures, and the simple path when the process is not evaluated."""

from __future__ import annotations

from agent.nodes.aggregate import NOT_EVALUATED, aggregate, memory_report, skeleton_length
from scoring.judge import CheckFailure
from scoring.schema import GradeRequest
from tests.agent.nodes.conftest import call, llm_context, slip, state_before


def test_the_report_of_the_slip(offline):
    report = call(aggregate, state_before(aggregate, slip(), offline), offline)["report"]
    assert report.score == 0 and report.steps[0].label == "incorrect"
    assert report.meta.mode == "offline"
    assert report.meta.versions["prompt_set"] == "offline-1"
    assert report.meta.versions["calibration"] == offline.judge.calibration.version
    assert report.meta.versions["hazard"] == "default" and "model" not in report.meta.versions


def test_an_llm_report_names_its_model_and_prompts(offline):
    context, _ = llm_context(offline)
    report = call(aggregate, state_before(aggregate, slip(mode="llm"), context), context)["report"]
    assert report.meta.mode == "llm" and report.meta.versions["model"] == "scripted"
    assert report.meta.versions["prompt_set"] != "offline-1"
    assert report.meta.llm_calls > 0


def test_a_simple_problem_is_scored_on_its_answer_alone(offline):
    state = {**state_before(aggregate, slip(), offline), "evaluate_process": False}
    report = call(aggregate, state, offline)["report"]
    labels = [s.label for s in report.steps]
    assert labels == ["correct", "correct", "incorrect"]  # the wrong answer, on the last step
    assert report.steps[0].reason == NOT_EVALUATED


def test_contained_failures_become_warnings_and_failed_checks(offline):
    state = state_before(aggregate, slip(), offline)
    failure = CheckFailure("judge.arithmetic", "ZeroDivisionError: boom")
    report = call(aggregate, {**state, "check_failures": [failure]}, offline)["report"]
    assert report.meta.failed_checks == ["judge.arithmetic"]
    assert any("judge.arithmetic" in w for w in report.meta.warnings)


def test_a_skeleton_or_reference_steps_give_the_complete_length():
    def length(**fields) -> int | None:
        return skeleton_length({"request": GradeRequest(problem="p", solution="s", **fields)})

    assert length(skeleton=["a", "b", "c"]) == 3
    assert length(reference_steps=["a", "b"]) == 2
    assert length() is None


def test_no_memory_no_memory_report(offline):
    assert memory_report({"request": slip()}) is None
