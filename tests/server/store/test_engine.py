"""The store's engine: the schema migrated at start-up, SQLite's pragmas and WAL switch, writers that lock or wait, and writes from many threads at once. SQLite by default; PostgreSQL under `make test-db`."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from sqlalchemy import inspect, select

from server.store.engine import open_store, to_json_text, to_wal
from server.store.models import Correction, Grade
from server.store.repository import (
    add_correction,
    new_grade,
    save_grade,
    save_grades,
)
from tests.server.store.conftest import report_json, request_json, save


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


def test_json_columns_are_written_by_pydantic_cores_serializer():
    import json

    value = {"score": 7, "steps": [{"text": "x = 4", "label": "correct"}], "note": "é"}
    assert json.loads(to_json_text(value)) == value


def test_an_sqlite_store_is_local_and_a_write_that_must_not_wait_fails_at_once(tmp_path):
    from sqlalchemy.exc import OperationalError

    store = open_store(f"sqlite:///{tmp_path / 'grades.db'}")
    assert store.local
    holder = store.engine.connect()
    holder.connection.driver_connection.execute("BEGIN IMMEDIATE")  # another writer
    try:
        with pytest.raises(OperationalError, match="locked"):
            save_grades(store, [new_grade("a", request_json(), report_json())], wait=False)
    finally:
        holder.connection.driver_connection.execute("ROLLBACK")
        holder.close()
    # the busy timeout is back for later writes on that connection
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() == 30_000
    save_grades(store, [new_grade("a", request_json(), report_json())], wait=False)
    store.close()
