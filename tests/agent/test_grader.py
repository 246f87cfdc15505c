"""The grader, the one entry point: a request in, a report out, blocking or on the caller's
loop, with a deadline per grade and the memory only where the request allows it."""

from __future__ import annotations

import asyncio

import pytest

from agent.context import Context
from agent.grader import Grader, LlmUnavailableError
from example_requests import load_example
from scoring.schema import GradeRequest


@pytest.fixture(scope="module")
def grader(fake_embedder, hand_judge):
    return Grader(Context(embedder=fake_embedder, judge=hand_judge))


def test_llm_mode_without_an_endpoint_is_refused(grader):
    with pytest.raises(LlmUnavailableError, match="STEPGRADE_LLM_BASE_URL"):
        grader.grade(GradeRequest(problem="p", solution="s", mode="llm"))


def test_async_grading_gives_the_same_report(grader):
    request = load_example("arithmetic_slip")
    a = grader.grade(request)
    b = asyncio.run(grader.agrade(request))
    assert a.model_dump(exclude={"meta"}) == b.model_dump(exclude={"meta"})


def test_a_grade_is_stamped_with_its_total_and_node_times(grader):
    report = grader.grade(load_example("arithmetic_slip"))
    assert report.meta.elapsed_ms > 0
    assert report.meta.elapsed_ms >= max(report.meta.node_ms.values())
    assert {"prepare", "aggregate"} <= set(report.meta.node_ms)


def test_successive_blocking_grades_share_one_event_loop(grader):
    request = load_example("arithmetic_slip")
    grader.grade(request)
    loop = grader._loop
    grader.grade(request)
    assert loop is not None and grader._loop is loop and loop.is_running()


def test_without_a_model_a_run_has_no_deadline_and_with_one_the_budget(hand_judge):
    from agent.llm.client import LlmClient
    from agent.llm.config import LlmConfig

    offline = Grader(Context(judge=hand_judge))
    assert offline.llm_budget is None and not offline.llm_configured
    llm = LlmClient(LlmConfig(base_url="http://llm.test/v1", model="m", budget=12.0))
    online = Grader(Context(judge=hand_judge, llm=llm))
    assert online.llm_budget == 12.0 and online.llm_configured

    async def runs():
        loop = asyncio.get_running_loop()
        return offline.new_run().deadline, online.new_run().deadline - loop.time()

    no_deadline, left = asyncio.run(runs())
    assert no_deadline is None and 11.0 < left <= 12.0


def test_memory_is_passed_only_when_the_request_allows_it():
    from datetime import UTC, datetime

    from agent.grader import input_state
    from scoring.judge import ProblemMemory, RememberedSolution, RememberedStep

    memory = ProblemMemory(
        "k",
        (RememberedSolution("g", (RememberedStep("x = 4", "correct"),), datetime.now(UTC), "4"),),
    )
    allowed = GradeRequest(problem="p", solution="s")
    refused = GradeRequest(problem="p", solution="s", memory=False)
    assert input_state(allowed, memory)["memory"] is memory
    assert input_state(refused, memory)["memory"] is None
    assert input_state(allowed, None)["memory"] is None


def test_a_remembered_answer_becomes_the_reference_of_a_grade_without_one(grader):
    from datetime import UTC, datetime

    from scoring.judge import ProblemMemory, RememberedSolution, RememberedStep

    request = GradeRequest(problem="What is 6 times 7?", solution_steps=["6 * 7 = 42"])
    memory = ProblemMemory(
        "k",
        (
            RememberedSolution(
                "g", (RememberedStep("6 * 7 = 42", "correct"),), datetime.now(UTC), "42"
            ),
        ),
    )
    assert grader.grade(request).answer.correct is None  # no reference: undecided
    assert grader.grade(request, memory=memory).answer.correct is True
