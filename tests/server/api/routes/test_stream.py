"""POST /grade/stream: Server-Sent Events in the graph's order, ending with the report; bad requests refused before the stream starts."""

from __future__ import annotations

import pytest

from example_requests import ARITHMETIC_SLIP, GIVEN_STEPS
from tests.server.conftest import service, sse_events


@pytest.fixture(scope="module")
def client():
    with service() as c:
        yield c


def test_stream_events_in_graph_order(client):
    r = client.post("/grade/stream", json=ARITHMETIC_SLIP)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    events = sse_events(r.text)
    names = [e for e, _ in events]
    assert names[0] == "accepted" and names[-1] == "report"
    nodes = [d["node"] for e, d in events if e == "node"]
    assert nodes[0] == "prepare" and nodes[-1] == "aggregate"
    for before, after in [
        ("segment", "score_steps"),
        ("score_steps", "verify"),
        ("verify", "build_tree"),
        ("build_tree", "aggregate"),
    ]:
        assert nodes.index(before) < nodes.index(after)
    by_node = {d["node"]: d for e, d in events if e == "node"}
    assert [s["index"] for s in by_node["segment"]["steps"]] == [1, 2, 3]
    assert "labels" not in by_node["score_steps"]  # offline: nothing to ask a model
    assert [s["label"] for s in by_node["verify"]["labels"]] == [
        "incorrect",
        "meaningless",
        "incorrect",
    ]
    assert by_node["build_tree"]["tree"]["chains"] == [[1, 2, 3]]
    report = events[-1][1]
    assert report["score"] == 0 and report["meta"]["elapsed_ms"] > 0
    assert set(report["meta"]["node_ms"]) >= {"prepare", "segment", "aggregate"}
    assert report == client.post("/grade", json=ARITHMETIC_SLIP).json() | {"meta": report["meta"]}


def test_stream_refuses_bad_requests_before_streaming(client):
    r = client.post("/grade/stream", json={**GIVEN_STEPS, "mode": "llm"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "llm_unavailable"
    r = client.post("/grade/stream", json={"problem": "p"})
    assert r.status_code == 422
