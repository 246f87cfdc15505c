"""The grade store itself: schema, review columns, keyset pages, corrections, retention, and
writes from many threads at once. SQLite by default; PostgreSQL under `make test-db`."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import inspect, select

from server.store.engine import GradeStore, open_store, to_wal
from server.store.lifecycle import keep_pruning, prune
from server.store.models import NO_INTERVAL, Correction, Grade
from server.store.repository import (
    GradeNotFound,
    InvalidCursor,
    LabelsMismatch,
    add_correction,
    delete_older_than,
    export_grades,
    get_grade,
    list_grades,
    new_grade,
    save_grade,
    save_grades,
    utcnow,
)
from server.store.review import review_fields


def report_json(
    score: int = 5,
    steps: int = 2,
    interval: list[int] | None = None,
    needs_review: bool | None = None,
) -> dict[str, Any]:
    """A stored report's JSON, with the uncertainty fields only when given."""
    report: dict[str, Any] = {
        "score": score,
        "steps": [
            {"index": i + 1, "text": f"step {i + 1}", "label": "correct"} for i in range(steps)
        ],
        "meta": {"mode": "offline", "versions": {"prompt_set": "offline-1"}},
    }
    if interval is not None:
        report["score_interval"] = interval
    if needs_review is not None:
        report["needs_review"] = needs_review
        report["review_reasons"] = [{"code": "wide_interval", "message": "wide"}]
    return report


def request_json(problem: str = "Solve 2x + 3 = 11.") -> dict[str, Any]:
    return {"problem": problem, "solution_steps": ["2x = 8", "x = 4"]}


@pytest.fixture
def store(database_url: str) -> Any:
    opened = open_store(database_url)
    yield opened
    opened.close()


def save(store: GradeStore, owner: str = "a", **report: Any) -> Grade:
    grade = new_grade(owner, request_json(), report_json(**report))
    save_grade(store, grade)
    return grade


def test_migration_creates_the_tables_and_running_it_again_changes_nothing(database_url):
    first = open_store(database_url)
    save(first)
    first.close()
    again = open_store(database_url)  # already at head: migrates nothing, loses nothing
    tables = set(inspect(again.engine).get_table_names())
    assert {"grades", "corrections", "alembic_version"} <= tables
    with again.session() as session:
        assert len(session.scalars(select(Grade)).all()) == 1
    again.close()


def test_sqlite_runs_in_wal_with_a_busy_timeout_and_foreign_keys(tmp_path):
    store = open_store(f"sqlite:///{tmp_path / 'x' / 'grades.db'}")  # the directory is made
    with store.engine.connect() as connection:
        pragma = {
            name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "busy_timeout", "foreign_keys")
        }
    assert pragma == {"journal_mode": "wal", "busy_timeout": 30_000, "foreign_keys": 1}
    store.close()


def test_review_fields_read_the_uncertainty_fields_when_present():
    assert review_fields(report_json()) == review_fields({})
    assert review_fields(report_json()).needs_review is False
    fields = review_fields(report_json(interval=[3, 8], needs_review=True))
    assert (fields.needs_review, fields.score_interval, fields.interval_width) == (True, (3, 8), 5)
    assert fields.review_reasons == [{"code": "wide_interval", "message": "wide"}]
    grade = new_grade(
        "a", request_json("x " * 200), report_json(interval=[3, 8], needs_review=True)
    )
    assert (grade.needs_review, grade.interval_width, len(grade.problem_excerpt)) == (True, 5, 160)
    assert new_grade("a", request_json(), report_json()).interval_width == NO_INTERVAL


def test_a_grade_is_read_back_whole_by_its_owner_only(store):
    grade = save(store, owner="a", score=7)
    with store.session() as session:
        stored = get_grade(session, "a", grade.id)
        assert (stored.request, stored.report["score"], stored.mode) == (
            request_json(),
            7,
            "offline",
        )
        with pytest.raises(GradeNotFound):
            get_grade(session, "b", grade.id)
        with pytest.raises(GradeNotFound):
            get_grade(session, "a", "no-such-id")


def test_uncertainty_order_widest_first_none_last_then_newest_across_pages(store):
    start = utcnow() - timedelta(hours=1)
    widths = [None, 2, 6, None, 6, 0, 4, 2]
    rows = []
    for i, width in enumerate(widths):
        interval = None if width is None else [1, 1 + width]
        rows.append(
            new_grade(
                "a",
                request_json(f"p{i}"),
                report_json(interval=interval, needs_review=i % 2 == 0),
                now=start + timedelta(minutes=i),
            )
        )
    rows.append(new_grade("b", request_json(), report_json(interval=[0, 10])))  # not a's
    save_grades(store, rows)
    with store.session() as session:
        pages, cursor = [], None
        while True:
            page = list_grades(session, "a", order="uncertainty", limit=3, cursor=cursor)
            pages.append([g.problem_excerpt for g in page.grades])
            if page.next_cursor is None:
                break
            cursor = page.next_cursor
        assert pages == [["p4", "p2", "p6"], ["p7", "p1", "p5"], ["p3", "p0"]]
        review = list_grades(session, "a", order="uncertainty", needs_review=True, limit=10)
        assert [g.problem_excerpt for g in review.grades] == ["p4", "p2", "p6", "p0"]
        assert review.next_cursor is None
        newest = list_grades(session, "a", order="created", needs_review=False, limit=10)
        assert [g.problem_excerpt for g in newest.grades] == ["p7", "p5", "p3", "p1"]


def test_a_cursor_is_opaque_and_bound_to_its_order(store):
    for _ in range(3):
        save(store)
    with store.session() as session:
        cursor = list_grades(session, "a", order="created", limit=1).next_cursor
        assert cursor is not None and "2026" not in cursor
        with pytest.raises(InvalidCursor):
            list_grades(session, "a", order="uncertainty", cursor=cursor)
        with pytest.raises(InvalidCursor):
            list_grades(session, "a", cursor="not-a-cursor")


def test_a_later_correction_supersedes_and_every_one_is_kept(store):
    grade = save(store, steps=2)
    with store.session() as session:
        with pytest.raises(LabelsMismatch, match="1 labels for a report of 2 steps"):
            add_correction(session, "a", grade.id, step_labels=["correct"])
        with pytest.raises(LabelsMismatch, match="'wrong' is not one of"):
            add_correction(session, "a", grade.id, step_labels=["correct", "wrong"])
        with pytest.raises(GradeNotFound):
            add_correction(session, "b", grade.id, step_labels=["correct", "correct"])
        add_correction(session, "a", grade.id, step_labels=["correct", "correct"], score=9)
        add_correction(
            session,
            "a",
            grade.id,
            step_labels=["correct", "incorrect"],
            score=4,
            note="step 2",
            reviewer="t",
        )
        stored = get_grade(session, "a", grade.id)
        assert [c.score for c in stored.corrections] == [9, 4] and stored.corrected
        [row] = export_grades(session, "a")
        assert row.correction is not None and row.correction.step_labels == ["correct", "incorrect"]
        assert export_grades(session, "b") == []


def test_export_takes_only_corrected_grades_unless_asked_for_all(store):
    corrected, plain = save(store), save(store)
    with store.session() as session:
        add_correction(session, "a", corrected.id, step_labels=["incorrect", "incorrect"])
        assert [r.grade.id for r in export_grades(session, "a")] == [corrected.id]
        every = export_grades(session, "a", corrected_only=False)
        assert {r.grade.id: r.correction is None for r in every} == {
            corrected.id: False,
            plain.id: True,
        }


def test_retention_deletes_old_grades_with_their_corrections(store):
    old = new_grade("a", request_json(), report_json(), now=utcnow() - timedelta(days=10))
    recent = new_grade("a", request_json(), report_json(), now=utcnow() - timedelta(days=1))
    save_grades(store, [old, recent])
    with store.session() as session:
        add_correction(session, "a", old.id, step_labels=["correct", "correct"])
        assert delete_older_than(session, utcnow() - timedelta(days=30)) == 0
    assert prune(store, days=5) == 1
    with store.session() as session:
        assert [g.id for g in session.scalars(select(Grade))] == [recent.id]
        assert session.scalars(select(Correction)).all() == []  # the foreign key cascades


def test_pruning_goes_on_while_the_service_runs(store):
    old = new_grade("a", request_json(), report_json(), now=utcnow() - timedelta(days=10))

    async def serve_a_while() -> None:
        pruning = asyncio.create_task(keep_pruning(store, days=5, every=0.05))
        await asyncio.sleep(0.01)
        save_grade(store, old)  # an old grade arriving after start-up
        await asyncio.sleep(0.5)
        pruning.cancel()

    asyncio.run(serve_a_while())
    with store.session() as session:
        assert session.scalars(select(Grade)).all() == []


def test_concurrent_writers_lose_nothing(database_url):
    """Threads that each open the store (as worker processes do: each migrates at start-up,
    then writes) on a fresh database; every committed id must be there afterwards."""
    threads, per_thread = 6, 25
    committed: list[str] = []
    errors: list[BaseException] = []
    lock = threading.Lock()
    start = threading.Barrier(threads)

    def worker(n: int) -> None:
        try:
            start.wait()
            store = open_store(database_url)
            for i in range(per_thread):
                grade = new_grade(f"owner{n % 2}", request_json(f"{n}-{i}"), report_json())
                save_grade(store, grade)
                with store.session() as session:
                    if i % 5 == 0:  # a read-then-write transaction among the inserts
                        add_correction(
                            session, grade.owner, grade.id, step_labels=["correct", "correct"]
                        )
                with lock:
                    committed.append(grade.id)
            store.close()
        except BaseException as err:  # noqa: BLE001 - reported by the assertion below
            errors.append(err)

    workers = [threading.Thread(target=worker, args=(n,)) for n in range(threads)]
    for t in workers:
        t.start()
    for t in workers:
        t.join()
    assert errors == []
    check = open_store(database_url)
    with check.session() as session:
        stored = set(session.scalars(select(Grade.id)))
        corrections = len(session.scalars(select(Correction)).all())
    check.close()
    assert len(committed) == threads * per_thread and stored == set(committed)
    assert corrections == threads * per_thread // 5


def test_an_sqlite_write_that_finds_the_lock_taken_waits_for_it_off_the_event_loop(tmp_path):
    """The recorder writes on the event loop only when SQLite's lock is free; while another
    writer holds it, the grade waits in a thread (the loop goes on) and is stored after."""
    from scoring.schema import GradeRequest
    from server.store.recording import Recorder

    url = f"sqlite:///{tmp_path / 'grades.db'}"
    store = open_store(url)
    holder = store.engine.connect()
    holder.connection.driver_connection.execute("BEGIN IMMEDIATE")  # another worker writing
    request = GradeRequest(problem="Solve 2x + 3 = 11.", solution_steps=["2x = 8", "x = 4"])

    async def scenario() -> tuple[list[str | None], int]:
        ticks = 0

        async def ticking() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        clock = asyncio.create_task(ticking())
        keeping = asyncio.create_task(Recorder(store, "a").keep([(request, report_json())]))
        await asyncio.sleep(0.3)
        assert not keeping.done()  # waiting for the lock, not failed and not stored
        holder.connection.driver_connection.execute("ROLLBACK")
        ids = await keeping
        clock.cancel()
        return ids, ticks

    try:
        ids, ticks = asyncio.run(scenario())
    finally:
        holder.close()
    assert ticks >= 20, "the event loop was held while the write waited"
    [grade_id] = ids
    with store.session() as session:
        assert get_grade(session, "a", grade_id).owner == "a"
    store.close()


class _Cursor:
    """An SQLite cursor whose WAL switches are refused as locked `refusals` times."""

    def __init__(self, mode: str, refusals: int, error: str = "database is locked") -> None:
        self.mode, self.refusals, self.error, self.switches = mode, refusals, error, 0

    def execute(self, sql: str) -> _Cursor:
        if sql == "PRAGMA journal_mode=WAL":
            self.switches += 1
            if self.refusals:
                self.refusals -= 1
                raise sqlite3.OperationalError(self.error)
            self.mode = "wal"
        return self

    def fetchone(self) -> tuple[str]:
        return (self.mode,)


def test_a_refused_switch_to_wal_is_tried_again_and_a_wal_file_is_left_alone():
    refused = _Cursor("delete", refusals=2)
    to_wal(refused)
    assert refused.mode == "wal" and refused.switches == 3
    already = _Cursor("wal", refusals=0)
    to_wal(already)
    assert already.switches == 0
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        to_wal(_Cursor("delete", refusals=10**6), seconds=0.05)
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        to_wal(_Cursor("delete", refusals=1, error="disk I/O error"))
