"""Small data sets written for this project (not copied from any benchmark), for tests and demos.

Each file has the layout of the public set its loader reads: `bundled_path("stepmath")`.
"""

from __future__ import annotations

from pathlib import Path

BUNDLED_DIR = Path(__file__).resolve().parent / "bundled"


def bundled_path(kind: str) -> Path:
    """The bundled file for a dataset kind (e.g. `stepmath`, `perturbation`, `math`)."""
    path = BUNDLED_DIR / f"{kind}.jsonl"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in BUNDLED_DIR.glob("*.jsonl")))
        raise FileNotFoundError(f"no bundled set for {kind!r}; bundled: {known}")
    return path
