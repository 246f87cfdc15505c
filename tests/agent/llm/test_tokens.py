"""How long an answer may be: its shape from the schema, the steps a solution has, and a max_tokens that covers the longest answer the bounds allow."""

from __future__ import annotations

import json
import re

from agent.llm.schemas import Bounds, bounded_json_schema
from agent.llm.tokens import approx_tokens, estimated_steps, limits, longest, max_tokens, shape


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


def test_the_token_estimate_is_an_upper_one_for_prose_latex_and_chinese():
    assert approx_tokens("") == 0
    assert approx_tokens("abcdef") == 2  # a byte count over three for plain words
    assert approx_tokens("\\frac{a}{b}") == 8  # LaTeX: one piece a symbol
    assert approx_tokens("所以答案是二") == 6  # a Chinese character a token
    assert approx_tokens("x" * 300) >= 100


def test_longest_counts_every_list_at_its_bound():
    small = bounded_json_schema("segmentation", Bounds(items=2, reason_chars=10, text_chars=256))
    large = bounded_json_schema("segmentation", Bounds(items=8, reason_chars=10, text_chars=256))
    assert longest(large) > longest(small) > 0
