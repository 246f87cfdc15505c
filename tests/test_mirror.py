"""Tests mirror the packages: every public module `PKG/a/b/name.py` has its own test file
`tests/PKG/a/b/test_name.py`, so the tests of a module are found where its path says, and a new
module without tests is noticed.

A public module is one whose name and whose package directories do not start with `_`; database
migrations are scripts Alembic runs (tested through the store's migration tests), not modules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("scoring", "agent", "server", "eval_sets", "prompts", "example_requests")


def public_modules(package: str) -> list[Path]:
    """The package's public modules, relative to the repository."""
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        rel = path.relative_to(ROOT)
        if path.name.startswith("_") or "migrations" in rel.parts:
            continue
        if any(part.startswith(("_", ".")) for part in rel.parts[:-1]):
            continue
        out.append(rel)
    return out


def mirrored(module: Path) -> Path:
    """Where a module's tests live."""
    return Path("tests", *module.parts[:-1], f"test_{module.stem}.py")


def test_public_modules_are_found() -> None:
    found = {m.as_posix() for p in PACKAGES for m in public_modules(p)}
    assert "scoring/score/stepmath.py" in found
    assert "server/api/routes/grade.py" in found
    assert not any("/_" in m or m.split("/")[-1].startswith("_") for m in found)
    assert not any("/migrations/" in m for m in found)


def test_mirrored_path() -> None:
    assert mirrored(Path("scoring/judge/checks/memory.py")) == Path(
        "tests/scoring/judge/checks/test_memory.py"
    )


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_module_has_its_test_file(package: str) -> None:
    missing = [m.as_posix() for m in public_modules(package) if not (ROOT / mirrored(m)).is_file()]
    assert not missing, "modules without tests/<same path>/test_<name>.py:\n" + "\n".join(missing)
