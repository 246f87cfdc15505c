"""How long an answer may be on the wire: the bounded schemas and `max_tokens` a grade's requests
carry, local servers against OpenAI, and a bound a server ignores still checked."""

from __future__ import annotations

import respx

from example_requests import load_example
from tests.agent.conftest import ANSWERS, JUDGED, body_of, ok, operation_of, respx_grader


@respx.mock
def test_local_servers_get_bounded_schemas_and_openai_plain_ones():
    request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    for base, bounded in (("http://llm.test/v1", True), ("https://api.openai.com/v1", False)):
        route = respx.post(f"{base}/chat/completions").mock(side_effect=ok)
        respx_grader(base).grade(request)
        sent = {operation_of(body_of(c.request))[0]: body_of(c.request) for c in route.calls}
        judged = sent["step_judgement"]["response_format"]["json_schema"]["schema"]
        assert ("maxItems" in judged["properties"]["steps"]) is bounded
        if bounded:
            assert judged["properties"]["steps"]["minItems"] == 3
        assert ("max_tokens" in sent["difficulty"]) is bounded
        assert ("max_completion_tokens" in sent["difficulty"]) is not bounded


@respx.mock
def test_a_segmentation_has_at_most_a_step_per_line_or_sentence():
    """Three lines of one sentence each: at most three steps, split alone or fused."""
    request = load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    route = respx.post("http://llm.test/v1/chat/completions").mock(side_effect=ok)
    respx_grader("http://llm.test/v1").grade(request)
    respx_grader("http://llm.test/v1").grade(request.model_copy(update={"fused": True}))
    sent = {operation_of(body_of(c.request))[0]: body_of(c.request) for c in route.calls}
    for operation in ("segmentation", "fused_judgement"):
        schema = sent[operation]["response_format"]["json_schema"]["schema"]
        assert schema["properties"]["steps"]["maxItems"] == 3, operation


@respx.mock
def test_an_ignored_bound_still_ends_in_a_check():
    """A server that ignores the bounds and answers more steps gets the check and the repair."""
    extra = {
        "index": 4,
        "label": "correct",
        "reason": "extra",
        "depends_on": [],
        "reference_steps": [],
        "error_categories": [],
    }
    answers = {**ANSWERS, "step_judgement": {"steps": [*JUDGED, extra]}}
    respx.post("http://llm.test/v1/chat/completions").mock(side_effect=lambda r: ok(r, answers))
    report = respx_grader("http://llm.test/v1").grade(
        load_example("arithmetic_slip").model_copy(update={"mode": "llm"})
    )
    judged = next(op for op in report.meta.llm_operations if op.operation == "step_judgement")
    assert judged.degraded == "content" and "expected 3 entries" in judged.detail
