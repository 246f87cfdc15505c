"""Start-up and shutdown in order: the grader, the service and the store are ready before the
first request; old grades are pruned before serving; a worker marks itself ready and gone."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from fastapi.testclient import TestClient
from sqlalchemy import select

from agent.build import make_grader
from agent.grader import Grader
from server.core.worker_ready import RUN_DIR_ENV, ready_workers
from server.main import create_app
from server.services.grading import GradingService
from server.store.engine import GradeStore, open_store
from server.store.models import Grade
from server.store.repository import new_grade, save_grades, utcnow
from tests.server.conftest import bag_of_words, settings_for
from tests.server.store.conftest import report_json, request_json


def grader_for(settings) -> Grader:
    return Grader(replace(make_grader(settings).context, embedder=bag_of_words))


def test_start_up_fills_the_app_state_and_shutdown_closes_the_store(tmp_path, monkeypatch):
    monkeypatch.delenv(RUN_DIR_ENV, raising=False)
    closed: list[GradeStore] = []
    close = GradeStore.close

    def recording_close(store: GradeStore) -> None:
        closed.append(store)
        close(store)

    monkeypatch.setattr(GradeStore, "close", recording_close)
    settings = settings_for(data_dir=tmp_path, preload_answer_worker=False)
    app = create_app(settings, grader=grader_for(settings))
    with TestClient(app):
        state = app.state
        assert state.settings is settings and isinstance(state.service, GradingService)
        assert state.readiness == {"embedding_model": "ok", "answer_worker": "lazy"}
        assert state.store is not None and closed == []
    assert closed == [state.store]


def test_without_a_store_the_app_keeps_none(tmp_path):
    settings = settings_for(store="off", preload_answer_worker=False)
    app = create_app(settings, grader=grader_for(settings))
    with TestClient(app):
        assert app.state.store is None


def test_old_grades_are_pruned_before_the_first_request(tmp_path):
    url = f"sqlite:///{tmp_path / 'grades.db'}"
    store = open_store(url)
    old = new_grade("default", request_json(), report_json(), now=utcnow() - timedelta(days=9))
    recent = new_grade("default", request_json(), report_json())
    save_grades(store, [old, recent])
    store.close()
    settings = settings_for(database_url=url, retention_days=5, preload_answer_worker=False)
    app = create_app(settings, grader=grader_for(settings))
    with TestClient(app), app.state.store.session() as session:
        assert list(session.scalars(select(Grade.id))) == [recent.id]


def test_one_of_several_workers_marks_itself_ready_then_gone(tmp_path, monkeypatch):
    monkeypatch.setenv(RUN_DIR_ENV, str(tmp_path))
    settings = settings_for(store="off", preload_answer_worker=False)
    app = create_app(settings, grader=grader_for(settings))
    with TestClient(app):
        assert ready_workers(tmp_path) == 1
    assert ready_workers(tmp_path) == 0
