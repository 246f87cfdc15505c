"""Shared test helpers: where the development data lives, and markers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path:
    """The development data folder: $STEPGRADE_DATA or ../shared/data beside the checkout."""
    env = os.environ.get("STEPGRADE_DATA")
    return Path(env) if env else (REPO.parent / "shared" / "data")


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Path to ../shared/data; tests that need it are skipped, with a message, when it is absent."""
    path = shared_data_dir()
    if not path.is_dir():
        pytest.skip(f"development data not found at {path} (set STEPGRADE_DATA to its folder)")
    return path


HAND_CALIBRATION = REPO / "tests" / "data" / "hand_calibration.json"


@pytest.fixture(scope="session")
def hand_judge():
    """A JudgeConfig on the hand-written calibration of tests/data: a 10% prior and round
    likelihood ratios, so that graph tests show mechanics, not the fitted numbers of the day."""
    from scoring.judge import JudgeConfig, load_calibration

    return JudgeConfig(calibration=load_calibration(HAND_CALIBRATION))
