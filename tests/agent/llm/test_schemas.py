"""The answer schemas sent to the model: strict as declared, or bounded so that a grammar-decoding server closes its JSON in time."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from agent.llm.schemas import SCHEMAS, Bounds, bounded_json_schema, strict_json_schema


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


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_schema_is_openai_strict_and_titled_nowhere(name):
    schema = strict_json_schema(name)
    text = json.dumps(schema)
    assert '"title"' not in text

    def closed(node):
        if isinstance(node, dict):
            if node.get("type") == "object":
                assert node.get("additionalProperties") is False, name
                assert set(node.get("required", [])) == set(node["properties"]), name
            for value in node.values():
                closed(value)
        elif isinstance(node, list):
            for item in node:
                closed(item)

    closed(schema)


def test_the_operations_have_their_fixed_names():
    assert set(SCHEMAS) == {
        "difficulty",
        "segmentation",
        "step_judgement",
        "fused_judgement",
        "answer_judgement",
    }


def test_a_model_answer_with_an_unknown_field_or_label_is_refused():
    judged = {
        "index": 1,
        "label": "correct",
        "reason": "r",
        "depends_on": [],
        "reference_steps": [],
        "error_categories": [],
    }
    assert SCHEMAS["step_judgement"].model_validate({"steps": [judged]})
    with pytest.raises(ValidationError):
        SCHEMAS["step_judgement"].model_validate({"steps": [{**judged, "label": "unchecked"}]})
    with pytest.raises(ValidationError):
        SCHEMAS["step_judgement"].model_validate({"steps": [judged], "score": 10})


def test_bounding_leaves_the_strict_schema_as_it_was():
    before = json.dumps(strict_json_schema("segmentation"))
    bounded_json_schema("segmentation", Bounds(items=2, reason_chars=10, text_chars=256))
    assert json.dumps(strict_json_schema("segmentation")) == before
