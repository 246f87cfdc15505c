"""The store's tables: what the review queue sorts on, and corrections and memory that go with
their grade."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import inspect, select

from server.store.models import NO_INTERVAL, Base, Correction, Grade, MemorySolution
from server.store.repository import add_correction, delete_older_than, utcnow
from tests.server.store.conftest import save


def test_the_tables_and_the_review_queues_indexes_are_declared():
    assert set(Base.metadata.tables) == {"grades", "corrections", "memory_solutions"}
    indexes = {i.name: [c.name for c in i.columns] for i in Grade.__table__.indexes}
    assert indexes["ix_grades_owner_uncertainty"] == ["owner", "interval_width", "created_at", "id"]
    assert indexes["ix_grades_owner_created"] == ["owner", "created_at", "id"]


def test_no_interval_sorts_below_every_real_width():
    assert NO_INTERVAL < 0  # widths are >= 0; the queue sorts widest first


def test_the_migrated_schema_has_every_column_the_models_declare(store):
    inspector = inspect(store.engine)
    for model in (Grade, Correction, MemorySolution):
        table = model.__table__.name
        stored = {c["name"] for c in inspector.get_columns(table)}
        assert {c.name for c in model.__table__.columns} <= stored, table


def test_a_grades_corrections_and_memory_go_with_it(store):
    grade = save(store, steps=2)
    with store.session() as session:
        add_correction(session, "a", grade.id, step_labels=["correct", "correct"])
        stored = session.get(Grade, grade.id)
        assert stored is not None and [c.step_labels for c in stored.corrections] == [
            ["correct", "correct"]
        ]
        session.rollback()
    with store.session() as session:
        assert len(session.scalars(select(MemorySolution)).all()) == 1
    with store.session() as session:
        assert delete_older_than(session, utcnow() + timedelta(seconds=1)) == 1
    with store.session() as session:
        assert session.scalars(select(Correction)).all() == []
        assert session.scalars(select(MemorySolution)).all() == []
