"""/grade, /grade/batch and /grade/stream in LLM mode, the model answering in process from a script."""

from __future__ import annotations

import pytest

from agent.llm.fake import ChatScript, scripted_client
from eval_sets.fakes.openai_server import ARITHMETIC_SLIP_ANSWERS, ARITHMETIC_SLIP_STEPS
from tests.server.conftest import service, sse_events

SLIP = {
    "problem": "A bakery sells 47 muffins on Monday and 58 on Tuesday at $3 each. How many "
    "dollars does it take in?",
    "solution": "\n".join(ARITHMETIC_SLIP_STEPS),
    "reference_answer": "315",
    "mode": "llm",
}


def answers(operation: str, _prompt: str) -> dict:
    return ARITHMETIC_SLIP_ANSWERS[operation]


@pytest.fixture(scope="module")
def script() -> ChatScript:
    return ChatScript(answers)


@pytest.fixture(scope="module")
def client(script):
    with service(llm=scripted_client(script)) as c:
        yield c


def test_a_grade_asks_the_model_and_keeps_its_labels(client, script):
    before = len(script.calls)
    r = client.post("/grade", json=SLIP)
    assert r.status_code == 200, r.text
    meta = r.json()["meta"]
    assert meta["mode"] == "llm" and not meta["degraded"], meta["warnings"]
    asked = [call.operation for call in script.calls[before:]]
    assert "step_judgement" in asked and meta["llm_calls"] == len(asked)
    assert [s["model_label"] for s in r.json()["steps"]] == [
        "incorrect",
        "meaningless",
        "incorrect",
    ]


def test_a_batch_grades_each_item_with_the_model(client, script):
    before = len(script.calls)
    r = client.post("/grade/batch", json={"items": [SLIP, {**SLIP, "mode": "offline"}]})
    assert r.status_code == 200, r.text
    modes = [item["report"]["meta"]["mode"] for item in r.json()["results"]]
    assert modes == ["llm", "offline"]
    assert len(script.calls) - before == r.json()["results"][0]["report"]["meta"]["llm_calls"]


def test_the_stream_sends_the_models_labels_before_the_report(client):
    r = client.post("/grade/stream", json=SLIP)
    assert r.status_code == 200
    events = sse_events(r.text)
    assert events[0] == ("accepted", {"mode": "llm"})
    scored = [d for e, d in events if e == "node" and d["node"] == "score_steps"]
    assert [s["label"] for s in scored[0]["labels"]] == ["incorrect", "meaningless", "incorrect"]
    assert events[-1][0] == "report" and events[-1][1]["meta"]["mode"] == "llm"


def test_a_reply_that_is_not_json_degrades_the_grade_not_the_answer():
    script = ChatScript(
        lambda operation, prompt: (
            "Looks right to me." if operation == "step_judgement" else answers(operation, prompt)
        )
    )
    with service(llm=scripted_client(script)) as c:
        r = c.post("/grade", json=SLIP)
    assert r.status_code == 200, r.text
    meta = r.json()["meta"]
    assert meta["mode"] == "llm" and meta["degraded"]
    assert any(
        op["operation"] == "step_judgement" and op["degraded"] == "format"
        for op in meta["llm_operations"]
    )
    assert r.json()["steps"][0]["label"] == "incorrect"
