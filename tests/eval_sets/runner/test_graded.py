"""Only results with a report reach the summary tables."""

from __future__ import annotations

from agent.grader import Grader
from eval_sets.items import Gold
from eval_sets.runner.graded import Graded, with_reports
from eval_sets.runner.store import ItemResult
from scoring.schema import GradeRequest

REQUEST = GradeRequest(problem="Compute 2 + 3.", solution_steps=["2 + 3 = 5."])


def test_failed_items_are_left_out_and_the_order_is_kept() -> None:
    report = Grader().grade(REQUEST)
    done = [
        ItemResult(id="a", gold=Gold(score=10), request=REQUEST, report=report),
        ItemResult(id="b", gold=Gold(), request=REQUEST, report=None, error="timeout after 1 s"),
        ItemResult(id="c", gold=Gold(), request=None, report=None, error="data.jsonl:3: not JSON"),
        ItemResult(id="d", gold=Gold(score=0), request=REQUEST, report=report),
    ]
    graded = with_reports(done)
    assert [g.result.id for g in graded] == ["a", "d"]
    assert graded[0] == Graded(done[0], report)
    assert with_reports([]) == []
