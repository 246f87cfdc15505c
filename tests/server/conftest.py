"""Service test helpers: apps built from explicit Settings with a torch-free embedder."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import numpy as np
from fastapi.testclient import TestClient

from agent.grader import Grader
from server.factory import make_grader
from server.main import create_app
from server.settings import Settings


def bag_of_words(texts):
    """A deterministic stand-in embedder: hashed bag of words, L2-normalised."""
    out = np.zeros((len(texts), 64), dtype=np.float32)
    for i, text in enumerate(texts):
        for word in text.lower().replace("$", " ").split():
            out[i, hash(word) % 64] += 1.0
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms == 0, 1, norms)


def settings_for(**overrides: Any) -> Settings:
    base: dict[str, Any] = {"preload_embedding": False, "log_json": False, "_env_file": None}
    return Settings(**{**base, **overrides})


@contextmanager
def service(**overrides: Any) -> Iterator[TestClient]:
    """A TestClient (lifespan run) on an app whose grader embeds with `bag_of_words`."""
    settings = settings_for(**overrides)
    built = make_grader(settings)
    grader = Grader(replace(built.context, embedder=bag_of_words))
    with TestClient(create_app(settings, grader=grader), raise_server_exceptions=False) as client:
        yield client
