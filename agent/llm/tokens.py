"""`max_tokens` per request, sized from the operation's output schema and the number of steps,
and the matching length bounds for servers that decode with a grammar.

Without a ceiling a small model may never close its JSON and fill its whole context (one such
call generated 7,835 tokens over 25 minutes). The ceiling is what a complete answer needs: the
schema's structure (a skeleton instance, serialised as models write it, indented), the free text
(`reason_tokens` per reason), and the text the answer copies verbatim (the solution, for
segmentation and the fused judgement; twice, as steps may overlap or repeat a line), with a
margin of a quarter. The bounds say the same in
the schema (steps, characters per reason), so that a grammar makes the model close its JSON in
time rather than be cut off; and the ceiling covers the longest answer those bounds allow (a
token per character, as digits are; the copied text as above), so that a server decoding with
the grammar never cuts an answer off: a small model writes up to every bound.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from agent.llm.schemas import SHORT_LIST, Bounds, bounded_json_schema, strict_json_schema

MARGIN = 1.25
COPIES = 2  # copied text may come twice: steps that overlap or repeat a line
STEP = 32  # ceilings are rounded up to a multiple of this: fewer distinct requests to build
TEXT_STEP = 256  # and text bounds to a multiple of this
_STEP_BREAK = re.compile(r"\s*\n\s*|(?<=[.;!?])\s+|(?<=[。；！？])")


_PIECE = re.compile(r"[\u3400-\u9fff\uf900-\uff60]|\w+|[^\w\s]")


def approx_tokens(text: str) -> int:
    """An upper estimate with no tokenizer: one token per three UTF-8 bytes (English prose runs
    at about four characters a token, Chinese at about one character), or one per word, Chinese
    character and punctuation mark, whichever is more (LaTeX is mostly punctuation:
    `\\frac{a}{b}` is eight pieces in eleven characters)."""
    return max(-(-len(text.encode()) // 3), len(_PIECE.findall(text)))


def estimated_steps(solution: str) -> int:
    """How many steps a segmentation of `solution` may return: its lines and sentences."""
    return max(1, sum(1 for part in _STEP_BREAK.split(solution) if part.strip()))


def _skeleton(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The smallest instance of `schema` that still shows every key, for counting its tokens."""
    if "$ref" in schema:
        return _skeleton(defs[schema["$ref"].rsplit("/", 1)[1]], defs)
    if "enum" in schema:
        return max((str(v) for v in schema["enum"]), key=len)
    kind = schema.get("type")
    if kind == "object":
        return {key: _skeleton(value, defs) for key, value in schema.get("properties", {}).items()}
    if kind == "array":
        item = _skeleton(schema.get("items", {}), defs)
        return [item] * 3 if isinstance(item, int) else [item]
    return {"string": "", "integer": 10, "number": 1.5, "boolean": False}.get(str(kind))


@dataclass(frozen=True)
class Shape:
    """Tokens of an answer with no list items and of one list item, free text left out, and
    how many free-text reasons each carries."""

    frame: int
    item: int
    frame_reasons: int
    item_reasons: int


def _tokens(value: Any) -> int:
    return approx_tokens(json.dumps(value, indent=2, ensure_ascii=False))


def _reasons(value: Any) -> int:
    return sum(key == "reason" for key in value) if isinstance(value, dict) else 0


@cache
def shape(operation: str) -> Shape:
    """The token shape of `operation`'s answer, from its schema (cached: schemas do not change)."""
    schema = strict_json_schema(operation)
    whole = _skeleton(schema, schema.get("$defs", {}))
    lists = [v for v in whole.values() if isinstance(v, list)]
    item = lists[0][0] if lists else None
    frame = {k: ([] if isinstance(v, list) else v) for k, v in whole.items()}
    return Shape(
        frame=_tokens(frame),
        item=_tokens(item) if item is not None else 0,
        frame_reasons=_reasons(frame),
        item_reasons=_reasons(item),
    )


def max_tokens(
    operation: str, *, items: int = 0, verbatim: str = "", reason_tokens: int, cap: int
) -> int:
    """The ceiling for one `operation` answer with `items` list entries (steps), copying
    `verbatim` text (JSON-escaped, as the answer carries it)."""
    size = shape(operation)
    reasons = size.frame_reasons + items * size.item_reasons
    copied = COPIES * approx_tokens(json.dumps(verbatim, ensure_ascii=False)) if verbatim else 0
    need = size.frame + items * size.item + reasons * reason_tokens + copied
    return min(cap, _round_up(math.ceil(need * MARGIN + 16), STEP))


def _round_up(value: int, step: int) -> int:
    return -(-value // step) * step


def longest(schema: dict[str, Any], node: dict[str, Any] | None = None) -> int:
    """Tokens of the longest answer a bounded schema's grammar allows, as models write it: a
    token per character of a string (digits and odd text tokenize that way), per digit of a
    number, per key and punctuation mark, and two of white space (a line break and indentation)
    around each."""
    node = schema if node is None else node
    if "$ref" in node:
        node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
    if "enum" in node:
        return max(approx_tokens(json.dumps(v)) for v in node["enum"]) + 2
    kind = node.get("type")
    if kind == "object":
        return 4 + sum(
            approx_tokens(json.dumps(key)) + 4 + longest(schema, value)
            for key, value in node.get("properties", {}).items()
        )
    if kind == "array":
        return 4 + node["maxItems"] * (3 + longest(schema, node.get("items", {})))
    if kind == "string":
        return 2 + node["maxLength"]
    if kind == "integer":
        return len(str(node["maximum"]))
    return 8  # a boolean, or a number


def limits(
    operation: str,
    *,
    language: str,
    reason_tokens: int,
    cap: int,
    items: int = 0,
    exact: bool = False,
    verbatim: str = "",
    references: int = SHORT_LIST,
) -> tuple[int, Bounds]:
    """`max_tokens` and the schema bounds of one request, from the same numbers. A reason may
    take `reason_tokens` tokens: three characters each in English, one in Chinese. The ceiling
    is at least the bounded answer's longest (the copied text counted as in `max_tokens`)."""
    per_token = 1 if language == "zh" else 3
    bounds = Bounds(
        items=items,
        reason_chars=reason_tokens * per_token,
        text_chars=_round_up(max(len(verbatim), 1), TEXT_STEP),
        exact=exact,
        references=references,
    )
    estimate = max_tokens(
        operation, items=items, verbatim=verbatim, reason_tokens=reason_tokens, cap=cap
    )
    uncopied = bounded_json_schema(operation, replace(bounds, text_chars=0))
    copied = COPIES * approx_tokens(json.dumps(verbatim, ensure_ascii=False)) if verbatim else 0
    bound = _round_up(longest(uncopied) + copied + 16, STEP)
    return min(cap, max(estimate, bound)), bounds
