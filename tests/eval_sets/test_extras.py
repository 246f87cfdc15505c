"""The `bench` extra check: passes when its modules import, names the missing module otherwise."""

from __future__ import annotations

import importlib.util

import pytest

from eval_sets import extras
from eval_sets.extras import BENCH_EXTRA_MODULES, require_bench_extra


def test_the_extra_lists_the_progress_bar_and_the_figures() -> None:
    assert set(BENCH_EXTRA_MODULES) == {"tqdm", "matplotlib"}


def test_installed_extra_passes() -> None:
    require_bench_extra()  # the dev install has the extra


def test_a_missing_module_is_named(monkeypatch) -> None:
    real = importlib.util.find_spec

    def without_matplotlib(name: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        return None if name == "matplotlib" else real(name, *args, **kwargs)

    monkeypatch.setattr(extras.importlib.util, "find_spec", without_matplotlib)
    with pytest.raises(ModuleNotFoundError, match="'matplotlib'") as err:
        require_bench_extra()
    assert err.value.name == "matplotlib"
