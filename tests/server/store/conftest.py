"""What the grade store's tests share: a stored report's and request's JSON, a fresh store."""

from __future__ import annotations

from typing import Any

import pytest

from server.store.engine import GradeStore, open_store
from server.store.models import Grade
from server.store.repository import (
    new_grade,
    save_grade,
)


def report_json(
    score: int = 5,
    steps: int = 2,
    interval: list[int] | None = None,
    needs_review: bool | None = None,
) -> dict[str, Any]:
    """A stored report's JSON, with the uncertainty fields only when given."""
    report: dict[str, Any] = {
        "score": score,
        "steps": [
            {"index": i + 1, "text": f"step {i + 1}", "label": "correct"} for i in range(steps)
        ],
        "meta": {"mode": "offline", "versions": {"prompt_set": "offline-1"}},
    }
    if interval is not None:
        report["score_interval"] = interval
    if needs_review is not None:
        report["needs_review"] = needs_review
        report["review_reasons"] = [{"code": "wide_interval", "message": "wide"}]
    return report


def request_json(problem: str = "Solve 2x + 3 = 11.") -> dict[str, Any]:
    return {"problem": problem, "solution_steps": ["2x = 8", "x = 4"]}


@pytest.fixture
def store(database_url: str) -> Any:
    opened = open_store(database_url)
    yield opened
    opened.close()


def save(store: GradeStore, owner: str = "a", **report: Any) -> Grade:
    grade = new_grade(owner, request_json(), report_json(**report))
    save_grade(store, grade)
    return grade
