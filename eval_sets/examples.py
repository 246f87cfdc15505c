"""The small examples written for this project and shipped with it (`eval_sets/examples/`)."""

from __future__ import annotations

import json
from pathlib import Path

from scoring.schema import GradeRequest

EXAMPLES_DIR = Path(__file__).resolve().parent / "examples"


def example_names() -> list[str]:
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.json"))


def load_example(name: str) -> GradeRequest:
    path = EXAMPLES_DIR / f"{name}.json"
    return GradeRequest.model_validate(json.loads(path.read_text(encoding="utf-8")))
