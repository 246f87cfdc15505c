"""A check that raises is left out of that grade and the grade goes on: at each layer (a check of
the offline judge, an LLM node, a deterministic node, a fusion step) the report is full and
valid, names the failed check in a warning and in `meta.failed_checks`, and nothing else moves."""

from __future__ import annotations

import asyncio
import sys

import pytest
import respx

import agent.nodes.align
import agent.nodes.collect_evidence
import agent.nodes.prepare
import agent.nodes.score_chunk
import agent.nodes.score_steps
import agent.nodes.segment
import agent.nodes.verify
import scoring.judge.collect
import scoring.score.fuse
from agent.context import Context
from agent.grader import Grader
from example_requests import load_example
from scoring.judge.checks import CHECKS
from scoring.schema import GradeReport, GradeRequest, Modules

from .conftest import BASE, URL, bag_of_words, ok, respx_grader

FUSE = sys.modules[
    scoring.score.fuse.__module__
]  # the module: the package's `fuse` is the function


def _boom(*_args: object, **_kwargs: object) -> object:
    raise OverflowError("integer division result too large for a float")


def _grade(
    request: GradeRequest, grader: Grader | None = None, run_async: bool = False
) -> GradeReport:
    grader = grader or Grader(Context(embedder=bag_of_words))
    report = asyncio.run(grader.agrade(request)) if run_async else grader.grade(request)
    return GradeReport.model_validate(report.model_dump())  # valid against the contract


def _contained(report: GradeReport, check: str, outcome: str = "graded without it") -> None:
    assert report.meta.failed_checks == [check]
    said = [w for w in report.meta.warnings if w.startswith(f"check {check} failed")]
    assert len(said) == 1, report.meta.warnings
    assert "OverflowError: integer division result too large" in said[0] and outcome in said[0]


SLIP = load_example("arithmetic_slip")  # 47 + 58 = 95 (wrong), then 95 x 3, answer 285 vs 315
REFERENCE = SLIP.model_copy(
    update={
        "reference_steps": [
            "The bakery sells 47 + 58 = 105 muffins.",
            "It takes in 105 x 3 = 315 dollars.",
        ]
    }
)


@pytest.fixture(scope="module")
def clean():
    return _grade(SLIP)


@pytest.mark.parametrize("name", [*CHECKS, "dependencies"])
@pytest.mark.parametrize("run_async", [False, True])
def test_a_judge_check_that_raises_is_left_out(monkeypatch, clean, name, run_async):
    if name == "dependencies":
        monkeypatch.setattr(scoring.judge.collect, "dependencies", _boom)
    else:
        monkeypatch.setitem(CHECKS, name, _boom)
    report = _grade(SLIP, run_async=run_async)
    _contained(report, f"judge.{name}")
    assert len(report.steps) == len(clean.steps)
    if name != "final_answer":  # the final answer is still checked: the last step is wrong
        assert report.steps[-1].label == "incorrect"
    assert report.answer.correct is False


def test_only_the_failed_check_is_missing(monkeypatch, clean):
    monkeypatch.setitem(CHECKS, "arithmetic", _boom)
    report = _grade(SLIP)
    _contained(report, "judge.arithmetic")
    assert "arithmetic" not in report.steps[0].evidence
    assert clean.steps[0].label == "incorrect"  # what the failed check found
    assert report.steps[-1].evidence == clean.steps[-1].evidence == ["answer"]  # other checks ran


def test_the_format_check_is_contained_too(monkeypatch):
    monkeypatch.setitem(CHECKS, "malformed", _boom)
    request = SLIP.model_copy(update={"modules": Modules(format=True)})
    _contained(_grade(request), "judge.malformed")


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


@pytest.mark.parametrize(
    ("target", "check", "outcome"),
    [
        ("hcrs_score", "fuse.hcrs", "graded without it"),
        ("_alignment_report", "fuse.alignment", "graded without it"),
    ],
)
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
    report = _grade(SLIP.model_copy(update={"mode": "llm"}), respx_grader(BASE), run_async)
    _contained(report, "node.segment", "graded by its offline twin")
    assert [s.text for s in report.steps] == [s.text for s in clean.steps]
    assert report.meta.mode == "llm"


@respx.mock
def test_an_llm_judge_that_raises_is_replaced_by_the_offline_judge(monkeypatch, clean):
    respx.post(URL).mock(side_effect=ok)
    monkeypatch.setattr(agent.nodes.score_steps, "llm_judge_steps", _boom)
    report = _grade(SLIP.model_copy(update={"mode": "llm"}), respx_grader(BASE))
    _contained(report, "node.score_steps", "graded by its offline twin")
    assert [s.label for s in report.steps] == [s.label for s in clean.steps]


@respx.mock
@pytest.mark.parametrize("run_async", [False, True])
def test_a_chunk_that_raises_is_judged_offline(monkeypatch, clean, run_async):
    respx.post(URL).mock(side_effect=ok)
    monkeypatch.setattr(agent.nodes.score_chunk, "llm_judge_steps", _boom)
    grader = respx_grader(BASE, chunk_steps=1)  # three parts, one step each
    report = _grade(SLIP.model_copy(update={"mode": "llm"}), grader, run_async)
    _contained(report, "node.score_chunk", "graded by its offline twin")
    assert [s.label for s in report.steps] == [s.label for s in clean.steps]


@respx.mock
def test_when_the_twin_fails_too_segmentation_falls_back_to_lines(monkeypatch):
    respx.post(URL).mock(side_effect=ok)
    monkeypatch.setattr(agent.nodes.segment, "segment_solution", _boom)
    monkeypatch.setattr(agent.nodes.segment, "segment_steps", _boom)
    report = _grade(SLIP.model_copy(update={"mode": "llm"}), respx_grader(BASE))
    _contained(report, "node.segment", "used its last resort")
    assert [s.text for s in report.steps] == SLIP.solution.splitlines()


def test_collect_evidence_that_raises_leaves_only_the_answer(monkeypatch, clean):
    monkeypatch.setattr(agent.nodes.collect_evidence, "collect_findings", _boom)
    report = _grade(SLIP)
    _contained(report, "node.collect_evidence", "steps decided without the offline checks")
    assert len(report.steps) == len(clean.steps)
    # no check's evidence; the wrong final answer (its own node) still refutes the last step
    assert report.answer.correct is False
    blamed = [s for s in report.steps if s.evidence]
    assert [(s.index, s.evidence) for s in blamed] == [(len(report.steps), ["answer"])]
    assert blamed[0].reason.startswith("final answer")
    assert all(s.label == "unchecked" for s in report.steps[:-1])


def test_an_offline_node_without_a_twin_or_last_resort_still_fails(monkeypatch):
    """No invented report: offline, the decision layer failing leaves no labels to report."""
    monkeypatch.setattr(agent.nodes.verify, "decide", _boom)
    with pytest.raises(OverflowError):
        _grade(SLIP)
