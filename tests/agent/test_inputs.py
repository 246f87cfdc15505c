"""What several nodes read from the state: the solution's text, the reference steps, the
reference answers (given, else remembered), and the LLM only when the grade uses it."""

from __future__ import annotations

from datetime import UTC, datetime

from agent.context import Context
from agent.inputs import (
    fused_call,
    gold_answers,
    grading_llm,
    judge_request,
    reference_steps,
    solution_text,
)
from scoring.judge import ProblemMemory, RememberedSolution, RememberedStep
from scoring.schema import GradeRequest


def request(**fields) -> GradeRequest:
    return GradeRequest(**{"problem": "Solve 2x = 8.", "solution": "x = 4", **fields})


def memory(answer: str | None) -> ProblemMemory:
    solution = RememberedSolution(
        "g", (RememberedStep("x = 4", "correct"),), datetime.now(UTC), answer
    )
    return ProblemMemory("k", (solution,))


def test_the_solution_text_is_the_solution_or_its_steps_joined():
    assert solution_text(request()) == "x = 4"
    given = request(solution=None, solution_steps=["2x = 8", "x = 4"])
    assert solution_text(given) == "2x = 8\nx = 4"


def test_reference_steps_are_given_ones_stripped_or_the_reference_segmented():
    assert reference_steps(request(reference_steps=[" 2x = 8 ", " ", "x = 4"])) == [
        "2x = 8",
        "x = 4",
    ]
    segmented = reference_steps(request(reference_solution="2x = 8.\nx = 4."))
    assert len(segmented) == 2 and segmented[0].startswith("2x = 8")
    assert reference_steps(request()) == []


def test_given_reference_answers_win_over_remembered_ones():
    remembered = memory("4")
    assert gold_answers({"request": request(reference_answer="4"), "memory": remembered}) == ["4"]
    assert gold_answers({"request": request(), "memory": remembered}) == ["4"]
    assert gold_answers({"request": request()}) == []


def test_the_judges_request_carries_the_references_and_modules():
    state = {
        "request": request(reference_answer="4"),
        "problem_type": "calculation",
        "language": "en",
        "reference_steps": ["x = 4"],
    }
    judged = judge_request(state)
    assert (judged.problem, judged.references, judged.reference_steps) == (
        "Solve 2x = 8.",
        ["4"],
        ["x = 4"],
    )


def test_a_fused_call_only_for_a_whole_solution():
    assert fused_call(request(fused=True))
    assert not fused_call(request(fused=True, solution=None, solution_steps=["x = 4"]))
    assert not fused_call(request())


def test_the_llm_only_when_the_grade_uses_it():
    marker = object()
    context = Context(llm=marker)  # type: ignore[arg-type]
    assert grading_llm({"use_llm": True}, context) is marker
    assert grading_llm({"use_llm": False}, context) is None
    assert grading_llm({}, context) is None
