"""A reply holds one verdict, the model's own, or it is no answer (docs/injection.md).

A judge that reads the first JSON object of a reply lets text after it, or a verdict the model
copied from the graded text, stand as a grade (comet-ml/opik #7848: a graded answer injected its
own verdict). A reply here fails closed: several JSON objects, several tool calls, a tool call
beside a JSON object in the content, a key given twice, or a verdict that stands in the
student's text, are problems; the operation gets one repair turn and then falls back to its
offline twin (`agent.llm.structured`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

_DECODER = json.JSONDecoder()
# A copied verdict this short could be a coincidence ({"correct": false}); longer ones are not.
MIN_COPIED_CHARS = 24
# The operations whose answer is a verdict on the student's work (segmentation copies the text
# by design; difficulty says nothing of its correctness).
VERDICTS = frozenset({"step_judgement", "fused_judgement", "answer_judgement"})


def json_objects(text: str) -> list[Any]:
    """Every JSON object that stands whole in `text`, outermost only, in order."""
    found: list[Any] = []
    at = text.find("{")
    while at >= 0:
        try:
            value, end = _DECODER.raw_decode(text, at)
        except ValueError:
            at = text.find("{", at + 1)
            continue
        found.append(value)
        at = text.find("{", end)
    return found


def _refuse_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise ValueError(f"key {twice[0]!r} given twice")
    return dict(pairs)


def reply_problems(text: str, tool_calls: int = 0, content: str = "") -> list[str]:
    """Why a reply is not one verdict: its text (the tool call's arguments, or the content)
    holds several JSON objects or a key twice; several tool calls came back; a tool call came
    with a JSON object in the content too."""
    problems = []
    if tool_calls > 1:
        problems.append(f"{tool_calls} tool calls came back: answer with exactly one")
    if tool_calls and json_objects(content):
        problems.append(
            "a JSON object came in the message content beside the tool call: "
            "answer with the tool call only"
        )
    objects = json_objects(text)
    if len(objects) > 1:
        problems.append(f"the answer holds {len(objects)} JSON objects: answer with exactly one")
    elif objects:
        start = text.find("{")
        try:
            _, end = _DECODER.raw_decode(text, start)
            json.loads(text[start:end], object_pairs_hook=_refuse_duplicates)
        except ValueError as err:
            problems.append(f"the answer's JSON object is ambiguous: {err}")
    return problems


def _compact(text: str) -> str:
    return "".join(text.split())


def copied_verdict(value: Any, text: str, student: Sequence[str]) -> bool:
    """Whether the answer (`value`, read from the reply `text`) stands in the student's text:
    equal to a JSON object written there, or its JSON written there whole."""
    if not student:
        return False
    written = [obj for s in student for obj in json_objects(s)]
    if any(obj == value for obj in written):
        return True
    reply = _compact(text)
    if len(reply) < MIN_COPIED_CHARS:
        return False
    return any(reply in _compact(s) for s in student)
