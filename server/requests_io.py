"""Reading GradeRequests from JSON or JSON lines, with errors that name the line and the field."""

from __future__ import annotations

import json
from dataclasses import dataclass

from pydantic import ValidationError

from scoring.schema import GradeRequest


@dataclass
class InputError(ValueError):
    """Bad input for the CLI: says where (line, field) and what is wrong."""

    message: str

    def __str__(self) -> str:
        return self.message


def _describe(err: ValidationError) -> str:
    first = err.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "request"
    return f"field '{field}': {first['msg']}"


def _validate(obj: object, where: str) -> GradeRequest:
    if not isinstance(obj, dict):
        raise InputError(f"{where}: expected a JSON object (a GradeRequest), got {type(obj).__name__}")
    try:
        return GradeRequest.model_validate(obj)
    except ValidationError as err:
        raise InputError(f"{where}: {_describe(err)}") from None


def parse_requests(text: str) -> list[GradeRequest]:
    """One JSON object, a JSON array of objects, or JSON lines (one object per line)."""
    if not text.strip():
        raise InputError("input is empty: expected a GradeRequest as JSON or JSON lines")
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    else:
        if isinstance(whole, list):
            return [_validate(obj, f"item {i}") for i, obj in enumerate(whole, 1)]
        return [_validate(whole, "input")]
    requests = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(f"line {number}: not valid JSON ({err.msg})") from None
        requests.append(_validate(obj, f"line {number}"))
    return requests
