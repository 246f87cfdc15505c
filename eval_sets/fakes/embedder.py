"""A model-free embedder for tests, so alignment runs without loading sentence-transformers."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np


def hashed_bag_of_words(texts: Sequence[str], dim: int = 64) -> np.ndarray:
    """A model-free `Embedder`: hashed word counts, L2-normalised.

    Deterministic across processes (crc32, not Python's salted `hash`) and instant; it sees
    shared words only, which is all a test of the pipeline around the model needs.
    """
    out = np.zeros((len(texts), dim), dtype=np.float32)
    for i, text in enumerate(texts):
        for word in text.lower().replace("$", " ").split():
            out[i, zlib.crc32(word.encode("utf-8")) % dim] += 1.0
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return out / np.where(norms == 0, 1, norms)
