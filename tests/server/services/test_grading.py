"""The grading service's rules around the grader: the request deadline (504, counted), the
offline fallback of a failed LLM grade, per-item failures in a batch, and the stream's events."""

from __future__ import annotations

import asyncio

import pytest

from agent.context import Context
from agent.grader import Grader
from example_requests import ARITHMETIC_SLIP, GIVEN_STEPS
from scoring.schema import GradeRequest
from server.core.errors import ApiError
from server.core.metrics import Metrics
from server.schemas import RejectedItem
from server.services.grading import GradingService
from tests.server.conftest import bag_of_words, settings_for


def request(example=GIVEN_STEPS, **changes) -> GradeRequest:
    return GradeRequest.model_validate({**example, **changes})


@pytest.fixture
def grader(hand_judge) -> Grader:
    return Grader(Context(embedder=bag_of_words, judge=hand_judge))


def service_on(grader: Grader, **settings) -> GradingService:
    return GradingService(grader, settings_for(**settings), Metrics())


def failures(service: GradingService, code: str) -> float:
    value = service.metrics.registry.get_sample_value(
        "stepgrade_grade_failures_total", {"code": code}
    )
    return value or 0.0


def test_a_grade_is_counted_with_its_endpoint(grader):
    service = service_on(grader)
    report = asyncio.run(service.grade(request(ARITHMETIC_SLIP)))
    assert report.score == 0 and report.meta.mode == "offline"
    labels = {"mode": "offline", "endpoint": "grade"}
    assert service.metrics.registry.get_sample_value("stepgrade_grades_total", labels) == 1


def test_past_the_deadline_with_nothing_to_return_is_a_504(grader, monkeypatch):
    async def slow(request, run=None, memory=None):
        await asyncio.sleep(5)

    monkeypatch.setattr(grader, "agrade", slow)
    service = service_on(grader, request_timeout=0.1)
    with pytest.raises(ApiError) as err:
        asyncio.run(service.grade(request()))
    assert (err.value.status, err.value.code) == (504, "deadline_exceeded")
    assert "0.1 s" in err.value.message and failures(service, "deadline_exceeded") == 1


def test_an_offline_grade_that_fails_is_not_hidden(grader, monkeypatch):
    async def broken(request, run=None, memory=None):
        raise RuntimeError("broken check")

    monkeypatch.setattr(grader, "agrade", broken)
    with pytest.raises(RuntimeError, match="broken check"):
        asyncio.run(service_on(grader).grade(request()))


def test_a_failed_llm_grade_is_graded_offline_and_says_so(hand_judge, monkeypatch):
    grader = Grader(Context(embedder=bag_of_words, judge=hand_judge), llm_configured=True)
    offline = grader.agrade
    asked: list[str] = []

    async def llm_fails(request, run=None, memory=None):
        asked.append(request.mode)
        if request.mode != "offline":
            raise ValueError("not JSON from the proxy")
        return await offline(request, run, memory)

    monkeypatch.setattr(grader, "agrade", llm_fails)
    service = service_on(grader)
    report = asyncio.run(service.grade(request(ARITHMETIC_SLIP, mode="llm")))
    assert asked == ["llm", "offline"]
    assert report.meta.mode == "llm" and report.meta.degraded
    assert any("not JSON from the proxy" in w for w in report.meta.warnings)
    assert report.score == asyncio.run(offline(request(ARITHMETIC_SLIP))).score


def test_a_batch_keeps_its_order_and_fails_items_alone(grader):
    service = service_on(grader)
    items = [
        request(ARITHMETIC_SLIP),
        RejectedItem(("solution",), "Input should be a valid string"),
        request(mode="llm"),  # no model configured here
    ]
    results = asyncio.run(service.grade_many(items))
    assert [r.index for r in results] == [0, 1, 2]
    assert results[0].report is not None and results[0].error is None
    assert results[1].error is not None and results[1].error.field == "items.1.solution"
    assert results[2].error is not None and results[2].error.code == "llm_unavailable"
    assert failures(service, "invalid_request") == failures(service, "llm_unavailable") == 1


def test_the_stream_is_accepted_then_nodes_then_the_report(grader):
    async def collect():
        return [e async for e in service_on(grader).stream(request(ARITHMETIC_SLIP))]

    events = asyncio.run(collect())
    assert events[0] == ("accepted", {"mode": "offline"})
    assert {name for name, _ in events[1:-1]} == {"node"}
    name, report = events[-1]
    assert name == "report" and report["score"] == 0


def test_a_stream_past_its_deadline_ends_with_an_error_event(grader, monkeypatch):
    async def slow_updates(request, run=None, memory=None):
        await asyncio.sleep(5)
        yield {}

    monkeypatch.setattr(grader, "astream", slow_updates)
    service = service_on(grader, request_timeout=0.1)

    async def collect():
        return [e async for e in service.stream(request())]

    events = asyncio.run(collect())
    assert [name for name, _ in events] == ["accepted", "error"]
    assert events[-1][1]["code"] == "deadline_exceeded"
