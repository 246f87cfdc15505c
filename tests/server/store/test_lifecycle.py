"""Retention: old grades deleted at start-up and while the service runs; hidden grades reported."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import select

from server.store.lifecycle import keep_pruning, prune
from server.store.models import Correction, Grade
from server.store.repository import (
    add_correction,
    delete_older_than,
    new_grade,
    save_grade,
    save_grades,
    utcnow,
)
from tests.server.store.conftest import report_json, request_json, save


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


def test_without_a_store_url_the_service_keeps_no_grades(tmp_path):
    from server.core.settings import Settings
    from server.store.lifecycle import start_store

    off = Settings(_env_file=None, store="off", data_dir=tmp_path)
    assert asyncio.run(start_store(off)) is None
    on = asyncio.run(start_store(Settings(_env_file=None, data_dir=tmp_path)))
    assert on is not None
    on.close()


def test_grades_stored_without_a_key_are_counted_and_warned_about(store, caplog):
    import logging

    from server.core.security import DEFAULT_OWNER
    from server.store.lifecycle import warn_hidden_grades

    with caplog.at_level(logging.WARNING, logger="stepgrade.store"):
        assert warn_hidden_grades(store) == 0
        assert caplog.records == []
        save(store, owner=DEFAULT_OWNER)
        save(store, owner=DEFAULT_OWNER)
        save(store, owner="someone")
        assert warn_hidden_grades(store) == 2
    [record] = caplog.records
    assert record.hidden_grades == 2 and "stepgrade store assign" in record.getMessage()
