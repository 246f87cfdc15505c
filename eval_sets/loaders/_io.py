"""Reading JSON lines (or a JSON array) and checking fields, with errors that name file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from eval_sets.registry import DatasetError
from scoring.schema import GradeRequest


def read_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each record of a JSON lines file or a file holding a JSON array."""
    if path.is_dir():
        raise DatasetError(f"{path} is a folder; this loader reads one JSON lines file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise DatasetError(f"{path} is not UTF-8 text ({err.reason})") from None
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as err:
            raise DatasetError(f"{path}: not valid JSON ({err.msg} at line {err.lineno})") from None
        for number, row in enumerate(rows, 1):
            yield number, _object(path, number, row)
        return
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise DatasetError(f"{path}:{number}: not valid JSON ({err.msg})") from None
        yield number, _object(path, number, row)


def _object(path: Path, number: int, row: object) -> dict[str, Any]:
    if not isinstance(row, dict):
        raise DatasetError(f"{path}:{number}: expected a JSON object, got {type(row).__name__}")
    return row


def require(path: Path, number: int, row: dict[str, Any], fields: Sequence[str], kind: str) -> None:
    """Raise a DatasetError naming every missing field and all the fields `kind` needs."""
    missing = [f for f in fields if f not in row]
    if missing:
        raise DatasetError(
            f"{where(path, number)}: missing field(s) {', '.join(missing)}; a {kind} record needs "
            f"{', '.join(fields)} (found: {', '.join(sorted(row)) or 'none'})"
        )


def where(path: Path, number: int) -> str:
    """`file:line`, or just the file for one-record files (line 0)."""
    return f"{path}:{number}" if number else str(path)


def bad(path: Path, number: int, message: str) -> DatasetError:
    return DatasetError(f"{where(path, number)}: {message}")


def make_request(path: Path, number: int, **fields: Any) -> GradeRequest:
    """A GradeRequest, with pydantic's complaint turned into a DatasetError naming the line."""
    try:
        return GradeRequest(**fields)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "request"
        raise bad(path, number, f"cannot build a GradeRequest ({where}: {first['msg']})") from None


def as_text(value: Any) -> str:
    """Answers and steps arrive as strings, numbers or nested lists; join lists with newlines."""
    if isinstance(value, list):
        return "\n".join(as_text(v) for v in value)
    return "" if value is None else str(value)


def steps_of(path: Path, number: int, value: Any, field: str) -> list[str]:
    """A list of steps, each a string or a list of lines (MR-MATH's step format)."""
    if not isinstance(value, list) or not value:
        raise bad(path, number, f"field {field!r} must be a non-empty list of steps")
    return [as_text(v) for v in value]
