"""Reading JSON lines (or a JSON array) and checking fields, with errors that name file and line.

A whole-file problem (a folder, not UTF-8, a JSON array that does not parse) raises DatasetError.
A problem with one row does not: `each_row` turns it into a `RowError`, which the runner records
as a failed item while it reads on, so one broken row of a public set does not lose the others.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from eval_sets.items import GoldItem, RowError
from eval_sets.plugins import DatasetError
from scoring.schema import GradeRequest

Row = dict[str, Any]
K = TypeVar("K")


def read_records(path: Path) -> Iterator[tuple[int, Row]]:
    """(line number, object) for each record of a JSON lines file or a file holding a JSON array;
    a line that is not a JSON object raises DatasetError (for tools that need every line)."""
    for number, row in scan_records(path):
        if isinstance(row, RowError):
            raise DatasetError(row.reason)
        yield number, row


def scan_records(path: Path) -> Iterator[tuple[int, Row | RowError]]:
    """As `read_records`, but a line that is not a JSON object comes as a RowError in its place."""
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
            yield number, row_error(path, number, bad(path, number, f"not valid JSON ({err.msg})"))
            continue
        yield number, _object(path, number, row)


def _object(path: Path, number: int, row: object) -> Row | RowError:
    if not isinstance(row, dict):
        return row_error(
            path, number, bad(path, number, f"expected a JSON object, got {type(row).__name__}")
        )
    return row


def row_error(path: Path, key: object, err: Exception) -> RowError:
    """The failed row `key` (a line number, or a file of a folder) of `path`, with its reason."""
    reason = (
        str(err)
        if isinstance(err, DatasetError)
        else (f"{where(path, key)}: {type(err).__name__}: {err}")
    )
    return RowError(key=f"{path.name}:{key}", reason=reason)


def each_row(
    path: Path,
    build: Callable[[K, Row], Iterable[GoldItem]],
    records: Iterable[tuple[K, Row | RowError]] | None = None,
) -> Iterator[GoldItem | RowError]:
    """The items `build` makes of each record of `path` (`scan_records` unless `records` is
    given); a record it refuses, whatever the exception, becomes a RowError and the next is read."""
    # without `records`, keys are line numbers (K is int)
    source: Iterable[tuple[Any, Row | RowError]] = (
        scan_records(path) if records is None else records
    )
    for key, row in source:
        if isinstance(row, RowError):
            yield row
            continue
        try:
            yield from build(key, row)
        except Exception as err:  # noqa: BLE001  (one row of a public set may break anything)
            yield row_error(path, key, err)


def require(path: Path, number: int, row: dict[str, Any], fields: Sequence[str], kind: str) -> None:
    """Raise a DatasetError naming every missing field and all the fields `kind` needs."""
    missing = [f for f in fields if f not in row]
    if missing:
        raise DatasetError(
            f"{where(path, number)}: missing field(s) {', '.join(missing)}; a {kind} record needs "
            f"{', '.join(fields)} (found: {', '.join(sorted(row)) or 'none'})"
        )


def where(path: Path, number: object) -> str:
    """`file:line`, or just the file for one-record files (line 0)."""
    return f"{path}:{number}" if number else str(path)


def bad(path: Path, number: int, message: str) -> DatasetError:
    """A DatasetError whose message starts with where it happened (`file:line`)."""
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
