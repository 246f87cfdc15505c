"""The bundled sets: each kind's file is found by name, an unknown kind is named with the choice."""

from __future__ import annotations

import pytest

from eval_sets.bundled import BUNDLED_DIR, bundled_path


def test_a_bundled_kind_is_its_jsonl_file() -> None:
    path = bundled_path("stepmath")
    assert path == BUNDLED_DIR / "stepmath.jsonl" and path.is_file()


@pytest.mark.parametrize(
    "kind", ["stepmath", "perturbation", "mr_math_invalid", "mr_math_redundant", "processbench"]
)
def test_every_set_the_tests_read_is_bundled(kind: str) -> None:
    assert bundled_path(kind).read_text(encoding="utf-8").strip()


def test_an_unknown_kind_names_what_is_bundled() -> None:
    with pytest.raises(FileNotFoundError, match="no bundled set for 'nope'") as err:
        bundled_path("nope")
    assert "stepmath" in str(err.value) and "gsm8k" in str(err.value)
