"""Service test helpers: apps built from explicit Settings with a torch-free embedder."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine

from agent.build import make_grader
from agent.grader import Grader
from agent.llm.client import LlmClient
from eval_sets.fakes.embedder import hashed_bag_of_words
from server.core.settings import Settings
from server.main import create_app

bag_of_words = hashed_bag_of_words


HAND_CALIBRATION = Path(__file__).resolve().parents[1] / "data" / "hand_calibration.json"


@pytest.fixture(autouse=True)
def _hand_calibration_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands run by these tests (`stepgrade grade`, `stepgrade serve`) read it too."""
    monkeypatch.setenv("STEPGRADE_CALIBRATION", str(HAND_CALIBRATION))


@pytest.fixture(autouse=True)
def _store_in_tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Apps and commands under test keep their grades in the test's own directory."""
    monkeypatch.setenv("STEPGRADE_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    """The grade store's database for a test: an SQLite file of its own, or, when
    STEPGRADE_TEST_DATABASE_URL is set (`make test-db`), that PostgreSQL database emptied."""
    url = os.environ.get("STEPGRADE_TEST_DATABASE_URL")
    if not url:
        yield f"sqlite:///{tmp_path / 'grades.db'}"
        return
    _drop_store_tables(url)
    yield url
    _drop_store_tables(url)


def _drop_store_tables(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "DROP TABLE IF EXISTS memory_solutions, corrections, grades, alembic_version"
        )
    engine.dispose()


def settings_for(**overrides: Any) -> Settings:
    """Settings for a test app; the judge uses the hand-written calibration of tests/data, so
    that service tests show the service's behaviour, not the fitted numbers of the day."""
    base: dict[str, Any] = {
        "preload_embedding": False,
        "log_json": False,
        "_env_file": None,
        "calibration": HAND_CALIBRATION,
    }
    if not os.environ.get("STEPGRADE_DATA_DIR"):  # module-scoped apps: before the fixture above
        base["data_dir"] = Path(tempfile.mkdtemp(prefix="stepgrade-test-"))
    return Settings(**{**base, **overrides})


@contextmanager
def service(llm: LlmClient | None = None, **overrides: Any) -> Iterator[TestClient]:
    """A TestClient (lifespan run) on an app whose grader embeds with `bag_of_words` and, given
    `llm` (say `agent.llm.fake.scripted_client`), asks that model in LLM mode."""
    settings = settings_for(**overrides)
    context = replace(make_grader(settings).context, embedder=bag_of_words)
    if llm is not None:
        context = replace(context, llm=llm, llm_model=llm.config.model)
    grader = Grader(context)
    with TestClient(create_app(settings, grader=grader), raise_server_exceptions=False) as client:
        yield client


def sse_events(text: str) -> list[tuple[str, dict]]:
    """A `/grade/stream` body as (event, data) pairs, in order."""
    events = []
    for block in text.strip().split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((fields["event"], json.loads(fields["data"])))
    return events


@pytest.fixture(scope="session")
def offline_report(hand_judge):
    """A real offline GradeReport of the bundled `arithmetic_slip` example (hand calibration)."""
    from agent.context import Context
    from example_requests import ARITHMETIC_SLIP
    from scoring.schema import GradeRequest

    grader = Grader(Context(embedder=bag_of_words, judge=hand_judge))
    return grader.grade(GradeRequest.model_validate(ARITHMETIC_SLIP))
