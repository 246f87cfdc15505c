"""The model-free embedder: unit rows, shared words make rows alike, the same text the same row."""

from __future__ import annotations

import numpy as np

from eval_sets.fakes.embedder import hashed_bag_of_words


def test_rows_are_unit_length_and_an_empty_text_is_zero() -> None:
    out = hashed_bag_of_words(["a b c", "", "x"], dim=16)
    assert out.shape == (3, 16) and out.dtype == np.float32
    assert abs(np.linalg.norm(out[0]) - 1) < 1e-6
    assert not out[1].any()
    assert abs(np.linalg.norm(out[2]) - 1) < 1e-6


def test_shared_words_score_higher_than_disjoint_ones() -> None:
    a, b, c = hashed_bag_of_words(["so x equals 5", "hence x equals 5", "area of a circle"])
    assert float(a @ b) > float(a @ c)


def test_case_and_dollar_signs_are_ignored_and_the_result_is_deterministic() -> None:
    a, b = hashed_bag_of_words(["$x$ Equals 5", "x equals 5"])
    assert np.allclose(a, b)
    assert np.array_equal(hashed_bag_of_words(["same text"]), hashed_bag_of_words(["same text"]))
