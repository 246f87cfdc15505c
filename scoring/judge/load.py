"""Reading the judge's calibration file: the judge's one file read (the rest of it is pure).

The shipped file (`calibration.json`, beside this module) is written by `python -m
eval_sets.calibrate`; any other path holds a calibration in the same format.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from scoring.judge.calibration import Calibration, CalibrationError

DEFAULT_PATH = Path(__file__).with_name("calibration.json")


def load_calibration(path: Path = DEFAULT_PATH) -> Calibration:
    """The calibration in `path` (the shipped file by default), read once per process."""
    return _read(Path(path).resolve())


@lru_cache(maxsize=4)
def _read(path: Path) -> Calibration:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise CalibrationError(f"cannot read calibration file {path}: {err}") from None
    return Calibration.from_json(data)
