"""A student who hands in nothing (docs/scoring.md "Empty solutions"): every node handles zero steps and
the grade is 0 with no steps, whatever the modules, the references or the mode."""

from __future__ import annotations

import asyncio

import pytest
import respx

from agent.context import Context
from agent.grader import Grader
from scoring.schema import GradeRequest, Modules

from .conftest import BASE, URL, bag_of_words, ok, respx_grader

PROBLEM = "A bakery sells 47 muffins on Monday and 58 on Tuesday. How many in all?"


@pytest.mark.parametrize(
    "empty",
    [
        {"solution": ""},
        {"solution": "  \n \t"},
        {"solution_steps": []},
        {"solution_steps": ["", " "]},
    ],
)
@pytest.mark.parametrize(
    "extra",
    [
        {},
        {"reference_answer": "105"},
        {"reference_answer": ["105", "one hundred five"], "problem_type": "calculation"},
        {"reference_steps": ["47 + 58 = 105"], "skeleton": ["add"], "reference_answer": "105"},
        {"reference_solution": "We add: 47 + 58 = 105."},
        {"modules": Modules(difficulty=True, simplicity=True, completeness=True, format=True)},
        {"problem_type": "proof"},
    ],
)
@pytest.mark.parametrize("run_async", [False, True])
def test_nothing_handed_in_scores_zero(empty, extra, run_async):
    request = GradeRequest(problem=PROBLEM, mode="offline", **empty, **extra)
    grader = Grader(Context(embedder=bag_of_words))
    report = asyncio.run(grader.agrade(request)) if run_async else grader.grade(request)
    assert (report.score, report.score_raw, report.score_binary) == (0, 0.0, 0)
    assert report.steps == [] and report.error_tree.roots == [] and report.error_tree.chains == []
    assert report.answer.extracted is None
    assert report.answer.correct is (False if request.gold_answers() else None)
    assert report.hcrs.score == 0.0 and report.holistic == 0.0 and not report.lucky_guess
    assert report.quadrant == "failure" and report.meta.failed_checks == []
    assert report.meta.warnings[0] == "empty solution: nothing to grade"


@respx.mock
def test_no_model_is_asked_about_an_empty_solution():
    route = respx.post(URL).mock(side_effect=ok)
    request = GradeRequest(
        problem=PROBLEM,
        solution=" ",
        reference_answer="105",
        mode="llm",
        modules=Modules(difficulty=True),
    )
    report = respx_grader(BASE).grade(request)
    assert route.call_count == 0 and report.meta.llm_calls == 0
    assert report.score == 0 and report.steps == [] and report.answer.correct is False
