"""The store's engine and sessions, and its schema brought to the latest migration at start-up.

SQLite (the default, a file under STEPGRADE_DATA_DIR) is set up for several worker processes
writing at once: WAL, so readers never block the writer; a busy timeout, so a writer waits for
the lock instead of failing; and `BEGIN IMMEDIATE`, so a transaction that reads before it writes
takes the write lock up front (a deferred one that read an older snapshot would fail with
SQLITE_BUSY at its first write, the busy timeout notwithstanding).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pydantic_core
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, make_url, text
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_BUSY_TIMEOUT_MS = 30_000
MIGRATION_LOCK = 26_026  # PostgreSQL advisory lock: one worker migrates, the others wait


@dataclass(frozen=True)
class GradeStore:
    engine: Engine
    sessions: sessionmaker[Session]

    def session(self) -> Session:
        """A new session on the store's engine."""
        return self.sessions()

    @property
    def local(self) -> bool:
        """An SQLite file: a write that finds the lock free takes well under a millisecond."""
        return self.engine.dialect.name == "sqlite"

    @contextmanager
    def writing(self, *, wait: bool = True) -> Iterator[Connection]:
        """A write transaction, committed on exit. On SQLite, `wait=False` raises
        `OperationalError` at once when another writer holds the lock, instead of waiting for
        it: what may run on the event loop must not sleep there. Elsewhere `wait` is ignored."""
        at_once = not wait and self.local
        with self.engine.connect() as connection:
            # On the driver's own connection: through SQLAlchemy a statement would begin the
            # transaction that `begin()` is to start (as BEGIN IMMEDIATE).
            driver: Any = connection.connection.driver_connection
            if at_once:
                driver.execute("PRAGMA busy_timeout=0")
            try:
                with connection.begin():
                    yield connection
            finally:
                if at_once:
                    driver.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")

    def close(self) -> None:
        """Release the engine's connections."""
        self.engine.dispose()


def to_json_text(value: Any) -> str:
    """The JSON columns' serializer: pydantic-core's, in Rust; `json.dumps` of a whole report
    was a visible part of the store's cost per grade."""
    return pydantic_core.to_json(value).decode()


def make_engine(url: str) -> Engine:
    """An engine for `url`; an SQLite file's directory is created when missing."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True, json_serializer=to_json_text)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
        json_serializer=to_json_text,
    )

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(dbapi_connection: Any, _: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions begin in `_begin_immediate`
        cursor = dbapi_connection.cursor()
        to_wal(cursor)
        # In WAL mode NORMAL loses no commit to a killed process (only to a power cut).
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin_immediate(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def to_wal(cursor: Any, seconds: float = SQLITE_BUSY_TIMEOUT_MS / 1000) -> None:
    """Put the SQLite file in WAL mode (kept in the file: later connections find it so).

    Connections that open a fresh file together all try to switch it, and a switch that meets
    another one can fail with "database is locked" at once, without the busy timeout's wait
    (seen with six threads opening one new store: one failed in about 25 runs). So a connection
    that finds the file already in WAL leaves it, and one whose switch is refused tries again
    until `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() >= deadline:
                raise
            time.sleep(0.01)


def upgrade(engine: Engine) -> None:
    """Migrate the schema to the latest revision (a no-op when it is there), in one transaction."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def open_store(url: str) -> GradeStore:
    """The store at `url`, migrated."""
    engine = make_engine(url)
    upgrade(engine)
    return GradeStore(engine, sessionmaker(engine, expire_on_commit=False))
