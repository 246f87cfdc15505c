"""The routes' dependencies: what they read from the app's state, and a 503 for the store when
the service keeps no grades."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace

import pytest

from server.api.deps import get_recorder, get_settings, get_store
from server.core.errors import ApiError


def request(**state) -> SimpleNamespace:
    return SimpleNamespace(app=SimpleNamespace(state=SimpleNamespace(**state)))


def test_without_a_store_the_store_routes_answer_503_store_off():
    with pytest.raises(ApiError) as err:
        asyncio.run(get_store(request(store=None)))  # type: ignore[arg-type]
    assert (err.value.status, err.value.code) == (503, "store_off")
    marker = object()
    assert asyncio.run(get_store(request(store=marker))) is marker  # type: ignore[arg-type]


def test_the_recorder_is_the_callers_and_names_the_calibration_file():
    settings = SimpleNamespace(calibration=Path("/x/hand.json"))
    recorder = asyncio.run(get_recorder(request(store=None, settings=settings), "owner-1"))  # type: ignore[arg-type]
    assert (recorder.store, recorder.owner, recorder.calibration) == (None, "owner-1", "hand.json")
    plain = SimpleNamespace(calibration=None)
    assert asyncio.run(get_recorder(request(store=None, settings=plain), "o")).calibration is None  # type: ignore[arg-type]


def test_settings_come_from_the_app_state():
    settings = object()
    assert asyncio.run(get_settings(request(settings=settings))) is settings  # type: ignore[arg-type]
