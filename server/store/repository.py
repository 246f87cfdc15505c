"""Reading and writing the grade store; every function is one transaction on a session.

Every read and write names the owner: a grade of another owner is not found, the same as a
grade that does not exist (so a key cannot even learn which ids exist).
"""

from __future__ import annotations

import base64
import binascii
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal, cast, get_args

from sqlalchemy import ColumnElement, Table, delete, func, insert, select, tuple_, update
from sqlalchemy.orm import Session, selectinload

from scoring.judge import problem_key
from scoring.schema import JudgedLabel
from server.store.engine import GradeStore
from server.store.memory import remember
from server.store.models import NO_INTERVAL, Correction, Grade, MemorySolution
from server.store.review import review_fields
from server.store.teach import teach_order

Order = Literal["uncertainty", "created", "teach"]
# `order=teach` ranks this many of the owner's latest uncorrected grades (one page, no cursor)
TEACH_WINDOW = 2000
STEP_LABELS: frozenset[str] = frozenset(get_args(JudgedLabel))  # a teacher judges every step
EXCERPT_CHARS = 160


class GradeNotFound(LookupError):
    """No grade of this id for this owner."""


class InvalidCursor(ValueError):
    """A cursor this service did not hand out for this order."""


class LabelsMismatch(ValueError):
    """Correction labels that do not fit the graded report's steps."""


@dataclass(frozen=True)
class GradePage:
    grades: list[Grade]
    next_cursor: str | None


@dataclass(frozen=True)
class ExportRow:
    grade: Grade
    correction: Correction | None


def utcnow() -> datetime:
    """Now in UTC, naive: both SQLite and PostgreSQL store it as written."""
    return datetime.now(UTC).replace(tzinfo=None)


def _excerpt(problem: str) -> str:
    flat = " ".join(problem.split())
    return flat if len(flat) <= EXCERPT_CHARS else flat[: EXCERPT_CHARS - 1] + "…"


def new_grade(
    owner: str,
    request: dict[str, Any],
    report: dict[str, Any],
    calibration: str | None = None,
    now: datetime | None = None,
) -> Grade:
    """A row for one graded request (both as JSON), its review columns filled from the report;
    `calibration` names the calibration when the report's `meta.versions` does not."""
    meta = report.get("meta") or {}
    review = review_fields(report)
    width = review.interval_width
    return Grade(
        id=uuid.uuid4().hex,
        owner=owner,
        created_at=now or utcnow(),
        request=request,
        report=report,
        calibration=(meta.get("versions") or {}).get("calibration") or calibration,
        mode=str(meta.get("mode", "offline")),
        model=(meta.get("versions") or {}).get("model"),
        score=int(report["score"]),
        needs_review=review.needs_review,
        interval_width=NO_INTERVAL if width is None else width,
        problem_excerpt=_excerpt(str(request.get("problem", ""))),
        corrected=False,
        problem_key=problem_key(str(request.get("problem", ""))),
    )


def save_grades(store: GradeStore, grades: Sequence[Grade], *, wait: bool = True) -> list[str]:
    """Commit the rows; their ids, in order. Returns only once they are durable; with
    `wait=False`, raises `OperationalError` at once when SQLite's lock is taken (`writing`).

    A Core INSERT, not the ORM's unit of work: every grade the service answers passes here, and
    the session's flush and transaction bookkeeping were most of the store's cost per grade
    (docs/benchmarks.md, "Speed")."""
    table = cast(Table, Grade.__table__)
    with store.writing(wait=wait) as connection:
        connection.execute(
            insert(table), [{c.key: getattr(g, c.key) for c in table.columns} for g in grades]
        )
    return [g.id for g in grades]


def save_grade(store: GradeStore, grade: Grade) -> str:
    """Store one grade and return its id."""
    return save_grades(store, [grade])[0]


def _sort_key(grade: Grade, order: Order) -> list[Any]:
    head = [grade.interval_width] if order == "uncertainty" else []
    return [*head, grade.created_at.isoformat(), grade.id]


def _encode_cursor(order: Order, key: list[Any]) -> str:
    raw = json.dumps([order, *key], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(cursor: str, order: Order) -> list[Any]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        values = json.loads(raw)
    except (binascii.Error, ValueError):
        raise InvalidCursor("not a cursor from this list") from None
    size = 4 if order == "uncertainty" else 3
    if not isinstance(values, list) or len(values) != size or values[0] != order:
        raise InvalidCursor(f"not a cursor of order={order}")
    try:
        created = datetime.fromisoformat(values[-2])
        head = [int(values[1])] if order == "uncertainty" else []
    except (TypeError, ValueError):
        raise InvalidCursor("not a cursor from this list") from None
    return [*head, created, str(values[-1])]


def list_grades(
    session: Session,
    owner: str,
    *,
    order: Order = "created",
    needs_review: bool | None = None,
    limit: int = 50,
    cursor: str | None = None,
) -> GradePage:
    """One page of the owner's grades, newest first or widest score interval first (then
    newest); keyset-paginated, so a page costs the same however deep it is. `teach` is the
    one page of `teach_grades`."""
    if order == "teach":
        if cursor is not None:
            raise InvalidCursor("order=teach has one page: read the queue again after correcting")
        return GradePage(teach_grades(session, owner, needs_review=needs_review)[:limit], None)
    columns: list[Any] = [Grade.created_at, Grade.id]
    if order == "uncertainty":
        columns.insert(0, Grade.interval_width)
    query = select(Grade).where(Grade.owner == owner)
    if needs_review is not None:
        query = query.where(Grade.needs_review.is_(needs_review))
    if cursor is not None:
        after: ColumnElement[bool] = tuple_(*columns) < tuple_(*_decode_cursor(cursor, order))
        query = query.where(after)
    query = query.order_by(*(c.desc() for c in columns)).limit(limit + 1)
    with session.begin():
        grades = list(session.scalars(query))
    more = len(grades) > limit
    grades = grades[:limit]
    next_cursor = _encode_cursor(order, _sort_key(grades[-1], order)) if more else None
    return GradePage(grades, next_cursor)


def teach_grades(session: Session, owner: str, *, needs_review: bool | None = None) -> list[Grade]:
    """The owner's latest `TEACH_WINDOW` uncorrected grades in the order whose corrections teach
    the problem memory the most (`server.store.teach`)."""
    query = (
        select(Grade)
        .where(Grade.owner == owner, Grade.corrected.is_(False))
        .order_by(Grade.created_at.desc(), Grade.id.desc())
        .limit(TEACH_WINDOW)
    )
    if needs_review is not None:
        query = query.where(Grade.needs_review.is_(needs_review))
    known = select(MemorySolution.problem_key).where(MemorySolution.owner == owner).distinct()
    with session.begin():
        grades = list(session.scalars(query))
        remembered = set(session.scalars(known))
    return teach_order(grades, remembered)


def get_grade(session: Session, owner: str, grade_id: str) -> Grade:
    """The grade with its corrections (oldest first). Raises GradeNotFound."""
    query = (
        select(Grade)
        .where(Grade.id == grade_id, Grade.owner == owner)
        .options(selectinload(Grade.corrections))
    )
    with session.begin():
        grade = session.scalars(query).one_or_none()
    if grade is None:
        raise GradeNotFound(grade_id)
    return grade


def check_labels(report: dict[str, Any], step_labels: Sequence[str]) -> None:
    """One label of the report's label set per reported step; LabelsMismatch says what is off."""
    steps = len(report.get("steps") or [])
    if len(step_labels) != steps:
        raise LabelsMismatch(
            f"step_labels: {len(step_labels)} labels for a report of "
            f"{steps} steps; give one label per reported step"
        )
    for i, label in enumerate(step_labels):
        if label not in STEP_LABELS:
            raise LabelsMismatch(
                f"step_labels: step {i + 1}'s label {label!r} is not one of "
                f"{', '.join(sorted(STEP_LABELS))}"
            )


@dataclass(frozen=True)
class Corrected:
    """A stored correction, and whether this call stored it (False: it repeated the latest one)."""

    correction: Correction
    created: bool


def add_correction(
    session: Session,
    owner: str,
    grade_id: str,
    *,
    step_labels: list[str],
    score: int | None = None,
    note: str = "",
    reviewer: str | None = None,
) -> Corrected:
    """Store a correction; it supersedes the grade's earlier ones, which are kept, and becomes
    the grade's part of its problem's memory (`server.store.memory.remember`).

    Idempotent: a correction equal to the grade's latest one (a retried request) stores
    nothing and changes no memory; the latest one is returned, `created` False."""
    with session.begin():
        grade = session.scalars(
            select(Grade)
            .where(Grade.id == grade_id, Grade.owner == owner)
            .options(selectinload(Grade.corrections))
        ).one_or_none()
        if grade is None:
            raise GradeNotFound(grade_id)
        check_labels(grade.report, step_labels)
        latest = grade.corrections[-1] if grade.corrections else None
        if latest is not None and (
            latest.step_labels,
            latest.score,
            latest.note,
            latest.reviewer,
        ) == (step_labels, score, note, reviewer):
            return Corrected(latest, False)
        correction = Correction(
            grade_id=grade.id,
            created_at=utcnow(),
            step_labels=step_labels,
            score=score,
            note=note,
            reviewer=reviewer,
        )
        session.add(correction)
        grade.corrected = True
        remember(session, grade, correction)
    return Corrected(correction, True)


def export_grades(session: Session, owner: str, *, corrected_only: bool = True) -> list[ExportRow]:
    """The owner's grades, oldest first, each with its latest correction (None if uncorrected)."""
    query = (
        select(Grade)
        .where(Grade.owner == owner)
        .options(selectinload(Grade.corrections))
        .order_by(Grade.created_at, Grade.id)
    )
    if corrected_only:
        query = query.where(Grade.corrected.is_(True))
    with session.begin():
        grades = list(session.scalars(query))
    return [ExportRow(g, g.corrections[-1] if g.corrections else None) for g in grades]


def delete_older_than(session: Session, cutoff: datetime) -> int:
    """Delete every owner's grades created before `cutoff` (their corrections go with them)."""
    with session.begin():
        result = session.execute(delete(Grade).where(Grade.created_at < cutoff))
    return int(getattr(result, "rowcount", 0) or 0)


def count_by_owner(session: Session, owner: str) -> int:
    """How many grades `owner` has."""
    with session.begin():
        return int(
            session.scalar(select(func.count()).select_from(Grade).where(Grade.owner == owner)) or 0
        )


def reassign_owner(session: Session, from_owner: str, to_owner: str) -> int:
    """Give every grade of `from_owner` (corrections follow their grade) to `to_owner`; how many."""
    with session.begin():
        result = session.execute(
            update(Grade).where(Grade.owner == from_owner).values(owner=to_owner)
        )
    return int(getattr(result, "rowcount", 0) or 0)
