"""Every file of the project that the README or a docs page names is where it says: a moved
module or test file is renamed in the text that points readers to it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TOP = ("tests", "scoring", "agent", "server", "eval_sets", "scripts", "prompts", "example_requests")
# a path in backticks under one of the project's folders, optionally with `::name` after it
NAMED = re.compile(r"`((?:" + "|".join(TOP) + r")/[A-Za-z0-9_./-]+?)(?:::[A-Za-z_0-9.()]+)?`")


def is_placeholder(path: str) -> bool:
    """A pattern for paths, not a path: `tests/PKG/a/b/test_name.py`, `tests/scoring/...`."""
    return "..." in path or any(
        part.isupper() or part.startswith("NAME") for part in path.split("/")
    )


def named_paths(text: str) -> list[str]:
    """The project paths a page names, placeholders left out."""
    return [m.group(1).rstrip("/") for m in NAMED.finditer(text) if not is_placeholder(m.group(1))]


def test_named_paths_are_read_from_text() -> None:
    text = "see `scoring/score/stepmath.py`, `tests/scoring/...`, `tests/PKG/a/b/test_name.py`"
    assert named_paths(text + " and `tests/server/conftest.py::service(...)`") == [
        "scoring/score/stepmath.py",
        "tests/server/conftest.py",
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_named_file_exists(page: Path) -> None:
    missing = [p for p in named_paths(page.read_text(encoding="utf-8")) if not (ROOT / p).exists()]
    assert not missing, f"{page.name} names files that are not there: {missing}"
