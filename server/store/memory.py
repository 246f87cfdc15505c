"""Problem memory in the store (docs/architecture.md 4.12): written when a grade is corrected,
read before a grade of the same problem is made.

Every read names the owner, so one key's memory never reaches another's grades. A grade whose
request opted out of memory (`GradeRequest.memory` false) neither reads nor feeds it. A memory
row belongs to its grade: retention deletes it with the grade (ON DELETE CASCADE).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from scoring.answer import extract_answer, is_computation
from scoring.judge import ACCEPTED_LABELS, ProblemMemory, RememberedSolution, RememberedStep
from scoring.score import NOT_MATH
from server.store.engine import GradeStore
from server.store.models import Correction, Grade, MemorySolution


def remembered_answer(report: dict[str, Any], labels: list[str]) -> str | None:
    """The final answer of a solution whose final step the teacher accepted: the one the grade
    extracted, else read from the final step; an answer written as a computation
    (`48 - 5 = 43`) is remembered as its result (`43`), the value a reference answer is (an
    answer like `a = 2, b = 3` or `x = 5` stays whole: its left sides compute nothing)."""
    if not labels or labels[-1] not in ACCEPTED_LABELS:
        return None
    steps = report.get("steps") or []
    extracted = (report.get("answer") or {}).get("extracted") or (
        extract_answer(str(steps[-1].get("text", ""))) if steps else None
    )
    if not extracted:
        return None
    *before, result = str(extracted).split("=")
    if before and is_computation(before[-1]) and result.strip():
        return result.strip()
    return str(extracted)


def remember(session: Session, grade: Grade, correction: Correction) -> None:
    """Make the correction the grade's part of its problem's memory (replacing an earlier one),
    inside the caller's transaction; nothing for a grade that opted out or has no key."""
    if grade.problem_key is None or grade.request.get("memory", True) is False:
        return
    # text the teacher too calls addressed to the grader is no step of the solution
    kept = [
        (s, label)
        for s, label in zip(grade.report.get("steps") or [], correction.step_labels, strict=True)
        if label != NOT_MATH
    ]
    labels = [label for _, label in kept]
    session.merge(
        MemorySolution(
            grade_id=grade.id,
            owner=grade.owner,
            problem_key=grade.problem_key,
            corrected_at=correction.created_at,
            steps=[{"text": str(s.get("text", "")), "label": label} for s, label in kept],
            answer=remembered_answer({**grade.report, "steps": [s for s, _ in kept]}, labels),
            note=correction.note,
        )
    )


_COLUMNS = (
    MemorySolution.grade_id,
    MemorySolution.corrected_at,
    MemorySolution.steps,
    MemorySolution.answer,
    MemorySolution.note,
)


# `load_memory`'s query as SQLite runs it (compiling the Core query cost more than the read)
_SQLITE_READ = (
    "SELECT grade_id, corrected_at, steps, answer, note FROM memory_solutions "
    "WHERE owner = ? AND problem_key = ? ORDER BY corrected_at, grade_id"
)


def load_memory(store: GradeStore, owner: str, key: str) -> ProblemMemory | None:
    """The owner's memory of the problem under `key`; None when nothing of it was corrected.

    Every grade asks, and most find nothing: on SQLite the read runs on the driver's own
    connection in autocommit, outside the store's `BEGIN IMMEDIATE` transactions, so it takes
    no write lock and never queues behind another worker's write (WAL: a reader sees the last
    commit)."""
    found: list[tuple[Any, ...]]
    with store.engine.connect() as connection:
        if store.local:
            driver: Any = connection.connection.driver_connection
            found = [
                (g, datetime.fromisoformat(str(at)), json.loads(steps), answer, note)
                for g, at, steps, answer, note in driver.execute(_SQLITE_READ, (owner, key))
            ]
        else:
            query = (
                select(*_COLUMNS)
                .where(MemorySolution.owner == owner, MemorySolution.problem_key == key)
                .order_by(MemorySolution.corrected_at, MemorySolution.grade_id)
            )
            found = [tuple(row) for row in connection.execute(query)]
            connection.rollback()
    if not found:
        return None
    return ProblemMemory(
        key,
        tuple(
            RememberedSolution(
                grade_id,
                tuple(RememberedStep(s["text"], s["label"]) for s in steps),
                at,
                answer,
                note,
            )
            for grade_id, at, steps, answer, note in found
        ),
    )
