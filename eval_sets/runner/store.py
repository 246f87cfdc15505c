"""results.jsonl: one line per graded item, appended as soon as it is graded.

Resuming is the reason for this module. A run killed at any moment leaves at most one partial
last line; `ResultStore.open` drops it (and any item that failed, so it is retried), keeps the
last record per id, and rewrites the file atomically only when something was dropped. Each
record is then written with one `write` of a whole line and flushed, so nothing is lost or
duplicated however often the run is restarted.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from eval_sets.items import Gold, RowError
from scoring.schema import GradeReport, GradeRequest

RESULTS = "results.jsonl"


@dataclass(frozen=True)
class ItemResult:
    """One graded item as stored: the report is None when grading failed (`error` says why), and
    the request too when the row could not even be read into one."""

    id: str
    gold: Gold
    request: GradeRequest | None
    report: GradeReport | None
    error: str | None = None
    elapsed_ms: float = 0.0
    finished_at: float = 0.0

    def to_line(self) -> str:
        """The record as one results.jsonl line, newline included."""
        data: dict[str, Any] = {
            "id": self.id,
            "gold": self.gold.to_json(),
            "request": None
            if self.request is None
            else self.request.model_dump(mode="json", exclude_defaults=True),
            "report": None if self.report is None else self.report.model_dump(mode="json"),
            "error": self.error,
            "timings": {"elapsed_ms": round(self.elapsed_ms, 3), "finished_at": self.finished_at},
        }
        return json.dumps(data, ensure_ascii=False) + "\n"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ItemResult:
        """A record as `to_line` wrote it (timings 0 when absent)."""
        report, request = data.get("report"), data["request"]
        timings = data.get("timings") or {}
        return cls(
            id=str(data["id"]),
            gold=Gold.from_json(data.get("gold") or {}),
            request=None if request is None else GradeRequest.model_validate(request),
            report=None if report is None else GradeReport.model_validate(report),
            error=data.get("error"),
            elapsed_ms=float(timings.get("elapsed_ms", 0.0)),
            finished_at=float(timings.get("finished_at", 0.0)),
        )

    @classmethod
    def unreadable(cls, row: RowError) -> ItemResult:
        """A row the loader could not read: a failed item, so that it is counted and reported."""
        return cls(
            id=row.key,
            gold=Gold(),
            request=None,
            report=None,
            error=row.reason,
            finished_at=time.time(),
        )


@dataclass
class ResultStore:
    """The results file and the records already in it, by id."""

    path: Path
    done: dict[str, ItemResult] = field(default_factory=dict)
    dropped: int = 0

    @classmethod
    def open(cls, out_dir: Path, *, retry_errors: bool = True) -> ResultStore:
        """The store of `out_dir` with earlier runs' records, the last per id; unreadable lines and
        (unless `retry_errors` is False) failed items dropped, the file rewritten if any was."""
        out_dir.mkdir(parents=True, exist_ok=True)
        store = cls(out_dir / RESULTS)
        if not store.path.exists():
            store.path.touch()
            return store
        raw = store.path.read_text(encoding="utf-8", errors="replace")
        lines = raw.split("\n")
        complete, tail = lines[:-1], lines[-1]  # the tail is "" when the file ends with "\n"
        store.dropped += bool(tail.strip())
        for line in complete:
            if not line.strip():
                continue
            try:
                result = ItemResult.from_json(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValidationError):
                store.dropped += 1
                continue
            if result.id in store.done:
                store.dropped += 1
            if retry_errors and result.error is not None:
                store.done.pop(result.id, None)
                store.dropped += 1
                continue
            store.done[result.id] = result
        if store.dropped:
            store._rewrite()
        return store

    def _rewrite(self) -> None:
        tmp = self.path.with_suffix(".jsonl.tmp")
        with tmp.open("w", encoding="utf-8") as fh:
            for result in self.done.values():
                fh.write(result.to_line())
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)

    def append(self, result: ItemResult) -> None:
        """Write one whole line and flush it; the record counts as done from now on."""
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(result.to_line())
            fh.flush()
        self.done[result.id] = result
