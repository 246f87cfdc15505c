"""Reading GradeRequests from JSON or JSON lines, one verdict per line or item.

A line that cannot be read (not UTF-8, not JSON, not a valid GradeRequest) becomes an `ItemError`
in its place, shaped like the service's errors, so one bad line never costs the others their
grade. Only input with nothing in it at all is refused as a whole (`InputError`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import ValidationError

from scoring.schema import GradeRequest


@dataclass
class InputError(ValueError):
    """Input that has nothing to grade at all: a usage error for the CLI."""

    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class ItemError:
    """Why one line (JSON lines) or item (a JSON array or object) got no report."""

    code: str
    message: str
    field: str | None = None

    def body(self) -> dict[str, str | None]:
        """The error in the service's JSON error shape."""
        return {"code": self.code, "message": self.message, "field": self.field}


@dataclass(frozen=True)
class Item:
    """One request of the input, or why it is not one; `where` is "line" for JSON lines."""

    where: Literal["line", "item"]
    number: int
    request: GradeRequest | None = None
    error: ItemError | None = None

    def error_json(self, error: ItemError) -> dict[str, Any]:
        """`{"line": N, "error": {"code", "message", "field"}}` (or `"item": N`)."""
        return {self.where: self.number, "error": error.body()}

    def label(self) -> str:
        """Where the item came from, for messages (`line 3`, `item 2`)."""
        return f"{self.where} {self.number}"


def _validate(obj: object) -> GradeRequest | ItemError:
    if not isinstance(obj, dict):
        return ItemError(
            "invalid_request", f"expected a JSON object (a GradeRequest), got {type(obj).__name__}"
        )
    try:
        return GradeRequest.model_validate(obj)
    except ValidationError as err:
        first = err.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        where = f"field '{field}': " if field else ""
        return ItemError("invalid_request", f"{where}{first['msg']}", field)


def _item(where: Literal["line", "item"], number: int, obj: object) -> Item:
    checked = _validate(obj)
    if isinstance(checked, ItemError):
        return Item(where, number, error=checked)
    return Item(where, number, request=checked)


def _document(text: str) -> list[Item] | None:
    """The items of a whole-document JSON value, or None when the text is not one."""
    try:
        whole = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    if isinstance(whole, list):
        return [_item("item", i, obj) for i, obj in enumerate(whole, 1)]
    return [_item("item", 1, whole)]


def _line(number: int, raw: bytes) -> Item:
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        return Item(
            "line",
            number,
            error=ItemError(
                "invalid_encoding", f"not UTF-8 text ({err.reason} at byte {err.start})"
            ),
        )
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as err:
        return Item("line", number, error=ItemError("invalid_json", f"not valid JSON ({err.msg})"))
    except RecursionError:
        return Item("line", number, error=ItemError("invalid_json", "JSON nested too deeply"))
    return _item("line", number, obj)


def read_items(data: bytes) -> Iterator[Item]:
    """One JSON object, a JSON array of objects, or JSON lines (one object per line).

    Raises:
        InputError: the input is empty or blank.
    """
    data = data.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark
    if not data.strip():
        raise InputError("input is empty: expected a GradeRequest as JSON or JSON lines")
    try:
        items = _document(data.decode("utf-8"))
    except UnicodeDecodeError:
        items = None
    if items is not None:
        yield from items
        return
    for number, raw in enumerate(data.split(b"\n"), 1):
        if raw.strip():
            yield _line(number, raw.rstrip(b"\r"))
