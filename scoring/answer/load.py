"""Reading the answer routes' measured precision: the answer stage's one file read.

The shipped file (`routes.json`, beside this module) is written by the answer-agreement study;
any other path holds route statistics in the same format (`scoring.answer.routes`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from scoring.answer.routes import Routes, RoutesError

DEFAULT_PATH = Path(__file__).with_name("routes.json")


def load_routes(path: Path = DEFAULT_PATH) -> Routes:
    """The measured routes at `path`, read once per path (a bad file raises RoutesError)."""
    return _read(Path(path).resolve())


@lru_cache(maxsize=4)
def _read(path: Path) -> Routes:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise RoutesError(f"cannot read route statistics {path}: {err}") from None
    if not isinstance(data, dict):
        raise RoutesError(f"route statistics {path} are not a JSON object")
    return Routes.from_json(data)
