"""The in-process scripted chat model: bound like the real one, read by the grader like the real one.

The reference is the HTTP fake on 127.0.0.1: the same answers, served in process or over HTTP,
must give the same report.
"""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage

from agent.llm.fake import ChatScript, NoReply, ScriptedChatModel, scripted_client
from eval_sets.fakes.openai_server import FakeOpenAI
from scoring.schema import GradeRequest
from tests.agent.conftest import ANSWERS, JUDGED, STEPS, llm_grader, scripted_grader

SLIP = GradeRequest(
    problem="A bakery sells 47 muffins on Monday and 58 on Tuesday at $3 each. How many dollars "
    "does it take in?",
    solution="\n".join(STEPS),
    reference_answer="315",
    mode="llm",
)


def _comparable(report) -> dict:
    """The report without its timings and token counts (the two fakes count tokens their own way)."""
    data = report.model_dump(mode="json")
    meta = data["meta"]
    for key in ("elapsed_ms", "node_ms", "prompt_tokens", "completion_tokens"):
        meta.pop(key)
    for operation in meta["llm_operations"]:
        for key in ("ms", "prompt_tokens", "completion_tokens"):
            operation.pop(key)
    return data


def test_a_grade_through_the_script_matches_the_same_answers_over_http() -> None:
    in_process = scripted_grader(ANSWERS, model="fake-model").grade(SLIP)
    with FakeOpenAI(ANSWERS) as server:
        over_http = llm_grader(server.base_url, stream=False).grade(SLIP)
    assert in_process.meta.mode == "llm" and not in_process.meta.degraded, in_process.meta.warnings
    assert _comparable(in_process) == _comparable(over_http)
    assert [s.model_label for s in in_process.steps] == [j["label"] for j in JUDGED]


@pytest.mark.parametrize("method", ["json_schema", "function_calling", "json_mode"])
def test_each_method_is_answered_the_way_it_is_read(method) -> None:
    script = ChatScript(lambda operation, _prompt: ANSWERS[operation])
    report = scripted_grader(script, methods=(method,)).grade(SLIP)
    assert report.meta.mode == "llm" and not report.meta.degraded, report.meta.warnings
    assert {call.method for call in script.calls} == {method}
    assert "step_judgement" in [call.operation for call in script.calls]
    assert report.steps[0].model_label == "incorrect"


def test_replies_are_taken_in_order_and_the_calls_recorded() -> None:
    script = ChatScript([{"first": 1}, {"second": 2}])
    model = ScriptedChatModel(
        model="m",
        api_key="k",
        base_url="http://127.0.0.1:9/v1",  # type: ignore[arg-type]
        script=script,
    )
    bound = model.bind(
        response_format={"type": "json_schema", "json_schema": {"name": "probe_op"}}, max_tokens=50
    )
    assert bound.invoke([HumanMessage("one")]).content == '{"first": 1}'
    assert bound.invoke([HumanMessage("two")]).content == '{"second": 2}'
    assert [(c.operation, c.method, c.prompt, c.max_tokens) for c in script.calls] == [
        ("probe_op", "json_schema", "one", 50),
        ("probe_op", "json_schema", "two", 50),
    ]
    with pytest.raises(NoReply, match="call 3 .* holds 2"):
        bound.invoke([HumanMessage("three")])


def test_a_reply_that_is_not_json_degrades_the_grade_to_the_offline_twins() -> None:
    script = ChatScript(
        lambda operation, _prompt: (
            "I think step one is fine." if operation == "step_judgement" else ANSWERS[operation]
        )
    )
    report = scripted_grader(script, methods=("json_schema",)).grade(SLIP)
    assert report.meta.mode == "llm" and report.meta.degraded
    judged = [op for op in report.meta.llm_operations if op.operation == "step_judgement"]
    assert judged and judged[0].degraded == "format", judged
    assert report.steps[0].label == "incorrect"  # the offline checks still find 47 + 58 != 95


def test_the_scripted_client_never_asks_the_endpoint_what_it_is() -> None:
    client = scripted_client(ChatScript([]))
    assert client.config.stream is False and not client.unidentified() and not client.streams


def test_a_responder_without_an_answer_fails_the_call_by_name() -> None:
    model = ScriptedChatModel(
        model="m",
        api_key="k",
        base_url="http://127.0.0.1:9/v1",  # type: ignore[arg-type]
        script=ChatScript(lambda _operation, _prompt: None),
    )
    with pytest.raises(NoReply, match="no reply for difficulty"):
        model.bind(tools=[{"type": "function", "function": {"name": "difficulty"}}]).invoke("x")
