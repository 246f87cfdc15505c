"""Start-up readiness: an injected embedder is ready, a lazy one waits for the first grade, a
model that fails to load is reported, not raised."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from agent.context import Context
from agent.grader import Grader
from scoring.align import EmbedConfig
from server.services import warmup
from tests.server.conftest import bag_of_words, settings_for


def checks(grader: Grader, **settings) -> dict[str, str]:
    return asyncio.run(warmup.warm_up(grader, settings_for(**settings)))


def test_an_injected_embedder_is_ready_and_nothing_preloaded_is_lazy():
    grader = Grader(Context(embedder=bag_of_words))
    assert checks(grader, preload_answer_worker=False) == {
        "embedding_model": "ok",
        "answer_worker": "lazy",
    }
    assert checks(Grader(Context()), preload_embedding=False, preload_answer_worker=False) == {
        "embedding_model": "lazy",
        "answer_worker": "lazy",
    }


def test_a_model_that_fails_to_load_is_reported_failed(monkeypatch):
    def refuse(name):
        raise OSError(f"no such model: {name}")

    monkeypatch.setattr(warmup, "load_model", refuse)
    grader = Grader(replace(Context(), embed=EmbedConfig(model="/nowhere/model")))
    result = checks(grader, preload_embedding=True, preload_answer_worker=False)
    assert result["embedding_model"] == "failed"


@pytest.mark.parametrize(("started", "check"), [(True, "ok"), (False, "failed")])
def test_the_answer_worker_is_started_and_its_start_reported(monkeypatch, started, check):
    class Verifier:
        def warm(self) -> bool:
            return started

    monkeypatch.setattr(warmup, "default_verifier", Verifier)
    grader = Grader(Context(embedder=bag_of_words))
    assert checks(grader, preload_answer_worker=True)["answer_worker"] == check
