"""Keeping what `/grade`, `/grade/batch` and `/grade/stream` answer: committed before the answer
leaves, in a worker thread so the event loop goes on serving."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import anyio
from sqlalchemy.exc import OperationalError, SQLAlchemyError

from scoring.judge import ProblemMemory, problem_key
from scoring.schema import GradeReport, GradeRequest
from server.core.errors import ApiError
from server.store.engine import GradeStore
from server.store.memory import load_memory
from server.store.repository import new_grade, save_grades

log = logging.getLogger("stepgrade.store")

Graded = tuple[GradeRequest, GradeReport | dict[str, Any]]


def store_unavailable() -> ApiError:
    """The error for a grade that could not be kept: 503, never a 200 for a lost grade."""
    return ApiError(
        503, "store_unavailable", "the grade could not be stored; retry later (nothing was kept)"
    )


@dataclass(frozen=True)
class Recorder:
    """One request's way into the store: which store (None: keep nothing) and whose grades."""

    store: GradeStore | None
    owner: str
    calibration: str | None = None

    async def memory(self, request: GradeRequest) -> ProblemMemory | None:
        """The caller's memory of the request's problem (docs/architecture.md 4.12); None when
        the store is off, the request opts out, or nothing of the problem was corrected.

        On SQLite the read is made on the event loop (WAL: a reader never waits for a writer,
        and an indexed read of a few rows costs less than a thread hop); elsewhere in a thread.
        A failed read grades without memory, logged, rather than failing the grade."""
        if self.store is None or not request.memory:
            return None
        store, key = self.store, problem_key(request.problem)
        try:
            if store.local:
                return load_memory(store, self.owner, key)
            return await anyio.to_thread.run_sync(load_memory, store, self.owner, key)
        except (SQLAlchemyError, sqlite3.Error):  # SQLite's read runs on the driver itself
            log.exception("reading the problem's memory failed; grading without it")
            return None

    async def keep(self, graded: Sequence[Graded]) -> list[str | None]:
        """Commit one row per (request, report); their ids, or Nones when the store is off.

        An SQLite write whose lock is free is made on the event loop (a thread hop cost more
        than the write); one that finds another worker writing waits for it in a thread."""
        if self.store is None or not graded:
            return [None] * len(graded)
        store = self.store
        rows = [
            new_grade(
                self.owner,
                request.model_dump(mode="json"),
                report if isinstance(report, dict) else report.model_dump(mode="json"),
                self.calibration,
            )
            for request, report in graded
        ]
        try:
            if store.local:
                try:
                    return list(save_grades(store, rows, wait=False))
                except OperationalError:
                    pass  # the lock is taken, or the write failed: once more, waiting, off the loop
            return list(await anyio.to_thread.run_sync(lambda: save_grades(store, rows)))
        except SQLAlchemyError:
            log.exception("storing grades failed", extra={"grades": len(graded)})
            raise store_unavailable() from None
