"""Every file of the project that the README, a docs page, the Makefile or a script names is where
it says: a moved module or test file is renamed wherever readers or commands are pointed to it
(`make test-db` runs test files by path)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "Makefile",
    *sorted((ROOT / "scripts").glob("*.sh")),
    *sorted((ROOT / ".ci").glob("*")),
]
TOP = ("tests", "scoring", "agent", "server", "eval_sets", "scripts", "prompts", "example_requests")
# a path in backticks under one of the project's folders, optionally with `::name` after it
NAMED = re.compile(r"`((?:" + "|".join(TOP) + r")/[A-Za-z0-9_./-]+?)(?:::[A-Za-z_0-9.()]+)?`")
# in a command: a path under tests/ as a word of its own
COMMAND_PATH = re.compile(r"(?<![\w/.-])(tests/[A-Za-z0-9_./-]+)")


def is_placeholder(path: str) -> bool:
    """A pattern for paths, not a path: `tests/PKG/a/b/test_name.py`, `tests/scoring/...`."""
    return "..." in path or any(
        part.isupper() or part.startswith("NAME") for part in path.split("/")
    )


def named_paths(text: str, *, commands: bool = False) -> list[str]:
    """The project paths a page names in backticks (a command file: every path under tests/),
    placeholders left out."""
    pattern = COMMAND_PATH if commands else NAMED
    found = [m.group(1) for m in pattern.finditer(text)]
    return [p.rstrip("/.") for p in found if not is_placeholder(p)]


def test_named_paths_are_read_from_text() -> None:
    text = "see `scoring/score/stepmath.py`, `tests/scoring/...`, `tests/PKG/a/b/test_name.py`"
    assert named_paths(text + " and `tests/server/conftest.py::service(...)`") == [
        "scoring/score/stepmath.py",
        "tests/server/conftest.py",
    ]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_named_file_exists(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    commands = page.suffix != ".md"
    missing = [p for p in named_paths(text, commands=commands) if not (ROOT / p).exists()]
    assert not missing, f"{page.name} names files that are not there: {missing}"


def test_paths_in_commands_are_read() -> None:
    line = "pytest -q tests/server/store tests/server/api/routes/test_grades.py $@"
    assert named_paths(line, commands=True) == [
        "tests/server/store",
        "tests/server/api/routes/test_grades.py",
    ]
