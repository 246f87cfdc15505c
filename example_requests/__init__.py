"""Example grade requests, hand-written for this project: those shown in the OpenAPI docs
(`/docs`), and the bundled files.

A data package of its own so that the service and the benchmarks read the same examples without
either importing the other. The bundled files (`example_requests/*.json`, package data) are what
`GET /examples` serves to the review page, so they ship in the wheel; the benchmarks and the tests
read them too.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scoring.schema import GradeRequest

EXAMPLES_DIR = Path(__file__).resolve().parent


def example_names() -> list[str]:
    """The bundled examples' names (file stems), sorted, so every reader lists them alike."""
    return sorted(p.stem for p in EXAMPLES_DIR.glob("*.json"))


def load_example(name: str) -> GradeRequest:
    """The bundled example `name`, validated as a request: a broken file fails where it is read."""
    path = EXAMPLES_DIR / f"{name}.json"
    return GradeRequest.model_validate(json.loads(path.read_text(encoding="utf-8")))


ARITHMETIC_SLIP: dict[str, Any] = {
    "problem": "A bakery sells muffins for $3 each. It sells 47 muffins on Monday and 58 on "
    "Tuesday. How many dollars does it take in over the two days?",
    "solution": "Step 1: The bakery sells $47 + 58 = 95$ muffins in total.\n"
    "Step 2: It takes in $95 \\times 3 = 285$ dollars.\n"
    "Step 3: So the bakery takes in $\\boxed{285}$ dollars.",
    "reference_answer": "315",
    "mode": "offline",
}

GIVEN_STEPS: dict[str, Any] = {
    "problem": "Solve $2x + 3 = 11$.",
    "solution_steps": ["$2x = 11 - 3 = 8$", "$x = 8 / 2 = 4$", "The answer is $4$."],
    "reference_answer": "4",
    "modules": {"format": True},
}

GRADE_EXAMPLES: dict[str, dict[str, Any]] = {
    "arithmetic_slip": {
        "summary": "An early slip that corrupts later steps",
        "value": ARITHMETIC_SLIP,
    },
    "given_steps": {"summary": "Pre-segmented steps, format module on", "value": GIVEN_STEPS},
}

BATCH_EXAMPLES: dict[str, dict[str, Any]] = {
    "two_items": {
        "summary": "Two solutions graded concurrently",
        "value": {"items": [ARITHMETIC_SLIP, GIVEN_STEPS]},
    },
}
