"""`/grade/stream`'s events: each graph update as a small JSON payload, and the report stamped
with the total and per-node times."""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace

import numpy as np
import pytest

from scoring.verdict import StepVerdict
from server.schemas import ErrorDetail
from server.services.events import StreamCollector, jsonable


@dataclasses.dataclass
class Point:
    x: int
    tags: tuple[str, ...]


def test_jsonable_turns_every_kind_into_plain_json():
    value = {
        1: Point(2, ("a",)),
        "model": ErrorDetail(code="c", message="m"),
        "set": {3},
        "array": np.array([1.5, 2.0]),
        "scalar": np.float64(0.25),
        "other": object,
    }
    out = jsonable(value)
    assert out["1"] == {"x": 2, "tags": ["a"]}
    assert out["model"] == {"code": "c", "message": "m", "field": None}
    assert (out["set"], out["array"], out["scalar"]) == ([3], [1.5, 2.0], 0.25)
    assert out["other"] == str(object)
    json.dumps(out)  # plain JSON now


def test_a_node_update_becomes_an_event_with_what_a_ui_shows():
    collector = StreamCollector()
    verdicts = [StepVerdict("correct", "ok", depends_on=(1,), p_wrong=0.1), None]
    answer = SimpleNamespace(extracted="12", correct=True, method="numeric")
    [(event, data)] = collector.add(
        {
            "score_steps": {
                "steps": ["a", "b"],
                "verdicts": verdicts,
                "answer": answer,
                "warnings": ["w"],
                "degraded": True,
                "node_ms": {"score_steps": 4.5},
            }
        }
    )
    assert event == "node" and data["node"] == "score_steps" and data["ms"] == 4.5
    assert data["steps"] == [{"index": 1, "text": "a"}, {"index": 2, "text": "b"}]
    assert data["labels"] == [
        {"index": 1, "label": "correct", "reason": "ok", "depends_on": [1], "p_wrong": 0.1}
    ]  # a step not judged yet has no label
    assert data["answer"] == {"extracted": "12", "correct": True, "method": "numeric"}
    assert (data["warnings"], data["degraded"]) == (["w"], True)
    [(_, empty)] = collector.add({"build_tree": None})
    assert empty == {"node": "build_tree", "ms": None}


def test_chunked_labels_are_numbered_from_their_parts_first_step():
    chunk = SimpleNamespace(verdicts=[StepVerdict("incorrect", "no")], first=3)
    [(_, data)] = StreamCollector().add({"score_chunk": {"chunks": [chunk]}})
    assert [(x["index"], x["label"]) for x in data["labels"]] == [(3, "incorrect")]


def test_the_report_is_stamped_with_the_node_times(offline_report):
    collector = StreamCollector()
    collector.add({"prepare": {"node_ms": {"prepare": 1.0}}})
    collector.add({"aggregate": {"report": offline_report, "node_ms": {"aggregate": 2.0}}})
    report = collector.report()
    assert report.meta.node_ms == {"prepare": 1.0, "aggregate": 2.0}
    assert report.meta.elapsed_ms >= 0 and report.score == offline_report.score


def test_a_graph_that_ends_without_a_report_is_an_error():
    with pytest.raises(RuntimeError, match="without a report"):
        StreamCollector().report()
