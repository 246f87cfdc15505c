"""The recorder: grades kept before the answer leaves, on the event loop only when the write cannot wait."""

from __future__ import annotations

import asyncio

import pytest

from server.store.engine import open_store
from server.store.repository import (
    add_correction,
    get_grade,
)
from tests.server.store.conftest import report_json


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


def _request(memory: bool = True):
    from scoring.schema import GradeRequest

    return GradeRequest(
        problem="Solve 2x + 3 = 11.", solution_steps=["2x = 8", "x = 4"], memory=memory
    )


def test_without_a_store_nothing_is_kept_and_no_memory_is_read():
    from server.store.recording import Recorder

    recorder = Recorder(None, "a")
    assert asyncio.run(recorder.keep([(_request(), report_json())] * 2)) == [None, None]
    assert asyncio.run(recorder.memory(_request())) is None


def test_kept_grades_are_stored_under_the_owner_with_the_calibration(store):
    from server.store.recording import Recorder

    ids = asyncio.run(Recorder(store, "a", "hand-1").keep([(_request(), report_json(score=8))]))
    with store.session() as session:
        stored = get_grade(session, "a", ids[0])
    assert (stored.score, stored.calibration, stored.owner) == (8, "hand-1", "a")


def test_memory_is_read_unless_the_request_opts_out(store):
    from server.store.recording import Recorder

    [grade_id] = asyncio.run(Recorder(store, "a").keep([(_request(), report_json())]))
    with store.session() as session:
        add_correction(session, "a", grade_id, step_labels=["correct", "correct"])
    recorder = Recorder(store, "a")
    memory = asyncio.run(recorder.memory(_request()))
    assert memory is not None and [s.source for s in memory.solutions] == [grade_id]
    assert asyncio.run(recorder.memory(_request(memory=False))) is None
    assert asyncio.run(Recorder(store, "b").memory(_request())) is None


def test_a_grade_that_cannot_be_stored_is_a_503_not_a_lost_grade(tmp_path):
    from sqlalchemy import text

    from server.core.errors import ApiError
    from server.store.recording import Recorder

    store = open_store(f"sqlite:///{tmp_path / 'grades.db'}")
    with store.engine.begin() as connection:
        connection.execute(text("DROP TABLE memory_solutions"))
        connection.execute(text("DROP TABLE corrections"))
        connection.execute(text("DROP TABLE grades"))
    recorder = Recorder(store, "a")
    with pytest.raises(ApiError) as err:
        asyncio.run(recorder.keep([(_request(), report_json())]))
    assert (err.value.status, err.value.code) == (503, "store_unavailable")
    assert asyncio.run(recorder.memory(_request())) is None  # a failed read grades without memory
    store.close()
