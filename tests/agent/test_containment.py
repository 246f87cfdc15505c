"""A check that raises is left out of that grade and the grade goes on: at each layer (a check of
the offline judge, an LLM node, a deterministic node, a fusion step) the report is full and
valid, names the failed check in a warning and in `meta.failed_checks`, and nothing else moves."""

from __future__ import annotations

import asyncio
import sys

import pytest
import respx

import agent.nodes.align
import agent.nodes.prepare
import agent.nodes.score_chunk
import agent.nodes.score_steps
import agent.nodes.segment
import scoring.fuse
import scoring.judge
from agent.context import Context
from agent.grader import Grader
from eval_sets.examples import load_example
from scoring.schema import GradeReport, GradeRequest, Modules

from .conftest import bag_of_words, llm_grader
from .test_llm_failures import BASE, URL, ok

FUSE = sys.modules[scoring.fuse.__module__]  # the module: the package's `fuse` is the function


def _boom(*_args: object, **_kwargs: object) -> object:
    raise OverflowError("integer division result too large for a float")


def _grade(request: GradeRequest, grader: Grader | None = None, run_async: bool = False) -> GradeReport:
    grader = grader or Grader(Context(embedder=bag_of_words))
    report = asyncio.run(grader.agrade(request)) if run_async else grader.grade(request)
    return GradeReport.model_validate(report.model_dump())  # valid against the contract


def _contained(report: GradeReport, check: str, outcome: str = "graded without it") -> None:
    assert report.meta.failed_checks == [check]
    said = [w for w in report.meta.warnings if w.startswith(f"check {check} failed")]
    assert len(said) == 1, report.meta.warnings
    assert "OverflowError: integer division result too large" in said[0] and outcome in said[0]


SLIP = load_example("arithmetic_slip")  # 47 + 58 = 95 (wrong), then 95 x 3, answer 285 vs 315
REFERENCE = SLIP.model_copy(update={"reference_steps": [
    "The bakery sells 47 + 58 = 105 muffins.", "It takes in 105 x 3 = 315 dollars."]})


@pytest.fixture(scope="module")
def clean():
    return _grade(SLIP)


@pytest.mark.parametrize(("target", "check"), [
    ("check_step", "judge.symbolic"),
    ("broken_rewrites", "judge.derivation"),
    ("extract_relations", "judge.relations"),
    ("dependencies", "judge.dependencies"),
    ("back_substitute", "judge.back_substitution"),
    ("unexplained_numbers", "judge.provenance"),
    ("odd_copies", "judge.restatement"),
    ("early_answer", "judge.ordering"),
])
@pytest.mark.parametrize("run_async", [False, True])
def test_a_judge_check_that_raises_is_left_out(monkeypatch, clean, target, check, run_async):
    monkeypatch.setattr(scoring.judge, target, _boom)
    report = _grade(SLIP, run_async=run_async)
    _contained(report, check)
    assert len(report.steps) == len(clean.steps)
    # The final answer is still checked: the last step is wrong whatever check failed.
    assert report.steps[-1].label == "incorrect" and report.answer.correct is False


def test_a_check_failing_on_one_step_still_runs_on_the_others(monkeypatch, clean):
    real = scoring.judge.check_step
    monkeypatch.setattr(scoring.judge, "check_step",
                        lambda step: _boom() if "47 + 58" in step else real(step))
    report = _grade(SLIP)
    _contained(report, "judge.symbolic")
    assert "on step 1 " in report.meta.warnings[-1]
    assert report.steps[0].label == "correct", "step 1 keeps the prior: its only check failed"
    assert report.steps[1].evidence == ["symbolic"] and "holds" in report.steps[1].reason
    assert clean.steps[0].label == "incorrect"  # what the failed check would have found


def test_the_format_check_is_contained_too(monkeypatch):
    monkeypatch.setattr(scoring.judge, "latex_problems", _boom)
    request = SLIP.model_copy(update={"modules": Modules(format=True)})
    _contained(_grade(request), "judge.format")


def test_a_failing_answer_check_leaves_the_answer_undecided(monkeypatch):
    monkeypatch.setattr(agent.nodes.prepare, "check_answer", _boom)
    report = _grade(SLIP)
    _contained(report, "prepare.answer")
    assert report.answer.correct is None and report.answer.method == "none"
    assert not any("no final answer" in w for w in report.meta.warnings)


def test_a_deterministic_node_that_raises_leaves_its_part_out(monkeypatch):
    monkeypatch.setattr(agent.nodes.align, "similarity_matrix", _boom)
    report = _grade(REFERENCE)
    _contained(report, "node.align", "graded without the reference alignment")
    assert report.alignment is None and len(report.steps) == 3


@pytest.mark.parametrize(("target", "check", "outcome"), [
    ("hcrs_score", "fuse.hcrs", "graded without it"),
    ("_alignment_report", "fuse.alignment", "graded without it"),
])
def test_a_fusion_step_that_raises_is_left_out(monkeypatch, target, check, outcome):
    monkeypatch.setattr(FUSE, target, _boom)
    report = _grade(REFERENCE)
    _contained(report, check, outcome)
    if check == "fuse.hcrs":  # the penalties are left out: HCRS is its base
        assert report.hcrs.score == report.hcrs.base
        assert report.hcrs.format_penalty == report.hcrs.hazard_penalty == 0.0
    else:  # no alignment report; the quadrant falls back to the process score
        assert report.alignment is None
        assert report.quadrant == "failure"


@respx.mock
@pytest.mark.parametrize("run_async", [False, True])
def test_an_llm_node_that_raises_is_graded_by_its_offline_twin(monkeypatch, clean, run_async):
    respx.post(URL).mock(side_effect=ok)
    monkeypatch.setattr(agent.nodes.segment, "segment_solution", _boom)
    report = _grade(SLIP.model_copy(update={"mode": "llm"}), llm_grader(BASE), run_async)
    _contained(report, "node.segment", "graded by its offline twin")
    assert [s.text for s in report.steps] == [s.text for s in clean.steps]
    assert report.meta.mode == "llm"


@respx.mock
def test_an_llm_judge_that_raises_is_replaced_by_the_offline_judge(monkeypatch, clean):
    respx.post(URL).mock(side_effect=ok)
    monkeypatch.setattr(agent.nodes.score_steps, "llm_judge_steps", _boom)
    report = _grade(SLIP.model_copy(update={"mode": "llm"}), llm_grader(BASE))
    _contained(report, "node.score_steps", "graded by its offline twin")
    assert [s.label for s in report.steps] == [s.label for s in clean.steps]


@respx.mock
@pytest.mark.parametrize("run_async", [False, True])
def test_a_chunk_that_raises_is_judged_offline(monkeypatch, clean, run_async):
    respx.post(URL).mock(side_effect=ok)
    monkeypatch.setattr(agent.nodes.score_chunk, "llm_judge_steps", _boom)
    grader = llm_grader(BASE, chunk_steps=1)  # three parts, one step each
    report = _grade(SLIP.model_copy(update={"mode": "llm"}), grader, run_async)
    _contained(report, "node.score_chunk", "graded by its offline twin")
    assert [s.label for s in report.steps] == [s.label for s in clean.steps]


@respx.mock
def test_when_the_twin_fails_too_segmentation_falls_back_to_lines(monkeypatch):
    respx.post(URL).mock(side_effect=ok)
    monkeypatch.setattr(agent.nodes.segment, "segment_solution", _boom)
    monkeypatch.setattr(agent.nodes.segment, "segment_steps", _boom)
    report = _grade(SLIP.model_copy(update={"mode": "llm"}), llm_grader(BASE))
    _contained(report, "node.segment", "used its last resort")
    assert [s.text for s in report.steps] == SLIP.solution.splitlines()


def test_an_offline_node_without_a_twin_or_last_resort_still_fails(monkeypatch):
    """No invented report: a judge that fails outside its guarded checks fails the grade."""
    monkeypatch.setattr(agent.nodes.score_steps, "judge_steps", _boom)
    with pytest.raises(OverflowError):
        _grade(SLIP)
