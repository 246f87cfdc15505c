"""The structured outputs the model must return: part of stepgrade's public contract.

Each schema's name (the `json_schema` / tool name sent to the model) is fixed:

- ``difficulty``: `level` (1-3, StepMathAgent Table 2: knowledge scope x solution steps),
  `process_evaluation_needed` (false only for simple problems), `problem_type`
  (calculation | proof | open_ended), `reason`.
- ``segmentation``: `steps`: the solution's logical steps, in order, covering the solution.
- ``step_judgement``: `steps`: one entry per given step: `index` (1-based), `label`
  (correct | incorrect | meaningless | redundant), `reason`, `depends_on` (earlier 1-based
  indices), `reference_steps` (1-based reference indices, REPA), `error_categories`.
- ``fused_judgement``: `steps`: like step_judgement but each entry carries the step's `text`
  instead of an index (segmentation, labels and dependencies in one call, like the original prompt).
- ``answer_judgement``: `correct` (the final answer equals a reference answer), `reason`.

The JSON schemas are OpenAI-strict: every object closed, every property required, no defaults and
no numeric bounds (`level` is an enum). Servers that decode with a grammar built from the schema
(llama.cpp, vLLM, Ollama) also get length bounds (`bounded_json_schema`): the number of steps, the
length of a reason, so that a small model closes its JSON instead of writing until `max_tokens`.
What a schema cannot say (exactly the asked step indices, a non-empty segmentation) is checked per
operation in `agent/llm/operations.py` and reported back to the model in the repair turn.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from scoring.schema import JudgedLabel, ProblemType


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Difficulty(_Closed):
    level: Literal[1, 2, 3] = Field(description="1 simple, 2 medium, 3 hard")
    process_evaluation_needed: bool = Field(description="false only when level is 1")
    problem_type: ProblemType
    reason: str


class Segmentation(_Closed):
    steps: list[str] = Field(description="the solution's steps in order, verbatim")


class JudgedStep(_Closed):
    index: int = Field(description="1-based step number")
    label: JudgedLabel
    reason: str
    depends_on: list[int] = Field(description="1-based earlier steps whose results this step uses")
    reference_steps: list[int] = Field(
        description="1-based reference steps this step corresponds to"
    )
    error_categories: list[str]


class StepJudgement(_Closed):
    steps: list[JudgedStep]


class FusedStep(_Closed):
    text: str = Field(description="the step, verbatim from the solution")
    label: JudgedLabel
    reason: str
    depends_on: list[int] = Field(description="1-based earlier steps whose results this step uses")
    reference_steps: list[int] = Field(
        description="1-based reference steps this step corresponds to"
    )
    error_categories: list[str]


class FusedJudgement(_Closed):
    steps: list[FusedStep]


class AnswerJudgement(_Closed):
    correct: bool
    reason: str


SCHEMAS: dict[str, type[BaseModel]] = {
    "difficulty": Difficulty,
    "segmentation": Segmentation,
    "step_judgement": StepJudgement,
    "fused_judgement": FusedJudgement,
    "answer_judgement": AnswerJudgement,
}


@cache
def strict_json_schema(name: str) -> dict[str, Any]:
    """The schema as sent to the model: titles dropped, everything else as pydantic writes it.

    Built once per operation (pydantic's generation costs milliseconds per call); callers only
    serialise it and must not mutate it.
    """
    schema = SCHEMAS[name].model_json_schema()
    _drop_titles(schema)
    return schema


def _drop_titles(node: object) -> None:
    if isinstance(node, dict):
        node.pop("title", None)
        for key, value in node.items():
            if key != "properties":
                _drop_titles(value)
            else:
                for prop in value.values():
                    _drop_titles(prop)
    elif isinstance(node, list):
        for item in node:
            _drop_titles(item)


# A small model under a grammar writes up to every bound it is given (Gemma 3 270M filled each
# list to its `maxItems` and wrote numbers of dozens of digits, measured with `make test-llm`):
# the bounds are the answer's length. Step numbers (`index`, `depends_on`, `reference_steps`)
# are 1-based and at most three digits; a step depends on, or matches, a few others; it has one
# or two error categories, each a short name.
SHORT_LIST, CATEGORIES, SHORT_TEXT, LARGEST_NUMBER = 4, 2, 24, 999


@dataclass(frozen=True)
class Bounds:
    """How long an answer may be: `items` steps (exactly, when `exact`), `reason_chars` per
    reason, `text_chars` per copied step, `references` reference steps to point to; other lists,
    strings and numbers get small fixed bounds."""

    items: int
    reason_chars: int
    text_chars: int
    exact: bool = False
    references: int = SHORT_LIST


@cache
def bounded_json_schema(name: str, bounds: Bounds) -> dict[str, Any]:
    """The strict schema with `maxLength` / `maxItems` / `minimum` / `maximum` (JSON Schema
    keywords every grammar converter reads; OpenAI's strict mode refuses them, so its API never
    gets this form)."""
    schema = copy.deepcopy(strict_json_schema(name))
    for node in [schema, *schema.get("$defs", {}).values()]:
        for key, prop in node.get("properties", {}).items():
            _bound(key, prop, bounds, top=node is schema)
    return schema


def _bound(key: str, prop: dict[str, Any], bounds: Bounds, *, top: bool) -> None:
    if "enum" in prop:  # bounded already
        return
    if prop.get("type") == "string":
        prop["maxLength"] = bounds.reason_chars if key == "reason" else bounds.text_chars
    if prop.get("type") == "integer":
        prop.update(minimum=1, maximum=LARGEST_NUMBER)
    if prop.get("type") != "array":
        return
    steps = top and key == "steps"
    item = prop.get("items", {})
    strings = item.get("type") == "string"
    most = bounds.references if key == "reference_steps" else CATEGORIES if strings else SHORT_LIST
    prop["maxItems"] = bounds.items if steps else min(bounds.items, most)
    if steps and bounds.exact:
        prop["minItems"] = bounds.items
    if strings:
        item["maxLength"] = bounds.text_chars if steps else SHORT_TEXT
    elif item.get("type") == "integer":
        item.update(minimum=1, maximum=LARGEST_NUMBER)
