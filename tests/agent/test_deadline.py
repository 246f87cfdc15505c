"""One deadline per grade: at it, in-flight requests are cancelled and no retry starts.

Checked from the server's side: the fake OpenAI server records when each request arrived and
when each client went away before its answer (time.monotonic(), as the event loop's clock).
"""

from __future__ import annotations

import asyncio
import time

import pytest

from eval_sets.fakes.openai_server import FakeOpenAI
from example_requests import load_example

from .conftest import llm_grader

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def request_llm():
    return load_example("arithmetic_slip").model_copy(update={"mode": "llm"})


def _grade_with_budget(server, fault, grader, request, seconds: float):
    """(deadline, report, when it returned) of a grade with `fault` on. The budget counts from
    the grade's start, so a first grade (healthy) starts the answer-check worker and builds the
    model's client."""
    grader.grade(request)
    server.fault = fault
    server.seen.clear()

    async def graded():
        run = grader.new_run(seconds)
        report = await grader.agrade(request, run)
        return run.deadline, report, time.monotonic()

    return asyncio.run(graded())


@pytest.mark.parametrize("stream", [True, False])
def test_the_deadline_closes_every_connection_in_flight(request_llm, stream):
    """Streamed, the server has sent the status and a first chunk when the deadline comes
    (llama-server does so once a slot takes the request); whole, it has sent nothing."""
    with FakeOpenAI() as server:
        grader = llm_grader(server.base_url, timeout=30, max_retries=3, stream=stream)
        deadline, report, finished = _grade_with_budget(server, "hang", grader, request_llm, 3.0)
        time.sleep(0.3)  # the server notices a closed connection at its next read
        gone, seen = list(server.gone), list(server.seen)
    # difficulty, segmentation and answer_judgement were in flight; step_judgement never left.
    assert len(seen) == len(gone) and 1 <= len(seen) <= 3
    assert all(s.body.get("stream", False) is stream for s in seen)
    assert all(deadline <= t <= deadline + 0.2 for t in gone), [t - deadline for t in gone]
    assert all(s.at < deadline for s in seen)
    assert {op.degraded for op in report.meta.llm_operations} == {"deadline"}
    assert report.meta.mode == "llm" and report.meta.degraded
    assert report.meta.llm_calls == len(seen)
    assert [s.label for s in report.steps] == ["incorrect", "meaningless", "incorrect"]  # offline
    assert finished - deadline < 5.0


def test_no_retry_starts_after_the_deadline(request_llm):
    with FakeOpenAI() as server:
        grader = llm_grader(server.base_url, max_retries=50)
        # 6 s, not 3: on a loaded machine the grade's offline work can take most of 3 s.
        deadline, report, _ = _grade_with_budget(server, "429", grader, request_llm, 6.0)
        seen = list(server.seen)
    assert len(seen) > 4  # retried, with back-off...
    # ...but none starts past the deadline (one begun just before it crosses loopback after).
    assert all(s.at < deadline + 0.1 for s in seen), [s.at - deadline for s in seen]
    assert {op.degraded for op in report.meta.llm_operations} <= {"transport", "deadline"}
    assert report.meta.llm_calls >= len(seen)  # a request cut at the deadline may not arrive


def test_a_streamed_answer_that_never_ends_is_cut_at_the_request_time_out(request_llm):
    """A model that writes on and on (a chunk every 0.2 s) never trips the HTTP client's
    time-out, which restarts at every chunk: the request's own time-out ends it, the
    connection is closed, and the operation says why."""
    with FakeOpenAI() as server:
        grader = llm_grader(server.base_url, timeout=1.0, stream=True)
        _, report, _ = _grade_with_budget(server, "trickle", grader, request_llm, 20.0)
        time.sleep(0.3)
        gone, seen = list(server.gone), list(server.seen)
    assert seen and len(gone) == len(seen)
    assert all(
        0.9 <= t - s.at <= 1.5
        for s, t in zip(sorted(seen, key=lambda s: s.at), sorted(gone), strict=True)
    )
    operations = report.meta.llm_operations
    assert {op.degraded for op in operations} == {"transport"}, operations
    assert all("did not answer in time" in op.detail for op in operations if op.requests)
