"""How long an answer may be: `max_tokens` from the schema and the steps, and the schema bounds
that make a grammar-decoding server close its JSON in time."""

from __future__ import annotations

import json
import re

import respx

from agent.llm.schemas import Bounds, bounded_json_schema, strict_json_schema
from agent.llm.tokens import approx_tokens, estimated_steps, limits, longest, max_tokens, shape
from example_requests import load_example
from tests.agent.conftest import ANSWERS, JUDGED, body_of, ok, operation_of, respx_grader


def test_the_shape_of_an_answer_comes_from_its_schema():
    judged = shape("step_judgement")
    assert judged.item > 30 and judged.item_reasons == 1 and judged.frame_reasons == 0
    assert shape("segmentation").item_reasons == 0 and shape("difficulty").frame_reasons == 1


def test_the_ceiling_grows_with_the_steps_the_reasons_and_the_copied_text():
    one = max_tokens("step_judgement", items=1, reason_tokens=64, cap=10_000)
    ten = max_tokens("step_judgement", items=10, reason_tokens=64, cap=10_000)
    assert ten > 8 * one / 2 and ten % 32 == 0
    assert max_tokens("step_judgement", items=10, reason_tokens=16, cap=10_000) < ten
    short = max_tokens("segmentation", items=3, verbatim="x = 1", reason_tokens=64, cap=10_000)
    long = max_tokens(
        "segmentation", items=3, verbatim="x = 1. " * 200, reason_tokens=64, cap=10_000
    )
    assert long - short >= approx_tokens("x = 1. " * 200)
    assert max_tokens("step_judgement", items=500, reason_tokens=64, cap=2048) == 2048


def test_steps_are_estimated_from_lines_and_sentences():
    assert estimated_steps("a\nb\n\nc") == 3
    assert estimated_steps("One. Two! Then 3.5 apples") == 3
    assert estimated_steps("设x。所以x=2；故答案为2") == 3
    assert estimated_steps("") == 1


def test_bounds_cap_steps_reasons_and_short_lists():
    schema = bounded_json_schema(
        "step_judgement", Bounds(items=4, reason_chars=90, text_chars=512, exact=True)
    )
    steps = schema["properties"]["steps"]
    assert (steps["minItems"], steps["maxItems"]) == (4, 4)
    item = schema["$defs"]["JudgedStep"]["properties"]
    assert item["reason"]["maxLength"] == 90 and item["depends_on"]["maxItems"] == 4
    assert item["error_categories"]["items"]["maxLength"] == 24
    assert item["error_categories"]["maxItems"] == 2
    assert "maxLength" not in item["label"]  # an enum is bounded already
    assert "maxLength" not in json.dumps(strict_json_schema("step_judgement"))  # untouched
    segmented = bounded_json_schema(
        "segmentation", Bounds(items=9, reason_chars=90, text_chars=256)
    )
    assert segmented["properties"]["steps"]["maxItems"] == 9
    assert "minItems" not in segmented["properties"]["steps"]
    assert segmented["properties"]["steps"]["items"]["maxLength"] == 256


def test_numbers_are_step_numbers_and_references_are_as_many_as_given():
    """A small model writes numbers of dozens of digits and fills every list it may."""
    schema = bounded_json_schema(
        "step_judgement", Bounds(items=6, reason_chars=30, text_chars=256, references=0)
    )
    item = schema["$defs"]["JudgedStep"]["properties"]
    assert (item["index"]["minimum"], item["index"]["maximum"]) == (1, 999)
    assert item["depends_on"]["items"] == {"type": "integer", "minimum": 1, "maximum": 999}
    assert item["reference_steps"]["maxItems"] == 0  # no reference solution: nothing to point to
    assert "minimum" not in json.dumps(strict_json_schema("step_judgement"))
    level = bounded_json_schema("difficulty", Bounds(items=0, reason_chars=30, text_chars=256))
    assert "maximum" not in level["properties"]["level"]  # an enum is bounded already


def test_the_ceiling_covers_the_longest_answer_the_bounds_allow():
    """Every string written out to its maxLength a token a character, every list to its
    maxItems: a grammar-decoding server then never cuts the answer off."""
    for operation, items in (("difficulty", 0), ("answer_judgement", 0), ("step_judgement", 5)):
        ceiling, bounds = limits(
            operation, language="en", reason_tokens=8, items=items, exact=bool(items), cap=10_000
        )
        schema = bounded_json_schema(operation, bounds)
        assert ceiling >= longest(schema) and ceiling % 32 == 0
        fullest = json.dumps(_fullest(schema), indent=2)
        assert ceiling >= len(_PIECES.findall(fullest)), operation
    assert limits("step_judgement", language="en", reason_tokens=8, items=50, cap=512)[0] == 512


_PIECES = re.compile(r"\d|\w+|[^\w\s]|\n\s*")  # digits one by one, as Gemma's tokenizer reads them


def _fullest(schema: dict, node: dict | None = None):
    """The answer that writes up to every bound (digits for text, the largest numbers)."""
    node = schema if node is None else node
    if "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    if "enum" in node:
        return max(node["enum"], key=lambda v: len(str(v)))
    kind = node.get("type")
    if kind == "object":
        return {k: _fullest(schema, v) for k, v in node["properties"].items()}
    if kind == "array":
        return [_fullest(schema, node["items"])] * node["maxItems"]
    if kind == "string":
        return "7" * node["maxLength"]
    return node.get("maximum", True) if kind == "integer" else True


def test_a_chinese_reason_gets_a_character_a_token():
    _, english = limits("difficulty", language="en", reason_tokens=40, cap=4096)
    _, chinese = limits("difficulty", language="zh", reason_tokens=40, cap=4096)
    assert (english.reason_chars, chinese.reason_chars) == (120, 40)


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
