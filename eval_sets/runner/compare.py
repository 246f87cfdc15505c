"""Two runs' results.jsonl compared item by item, timings aside.

Engines must agree on everything a grade says. What differs by nature is left out: the item's
`timings` (elapsed_ms, finished_at) and the report's `meta.elapsed_ms` and `meta.node_ms`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from eval_sets.runner.store import RESULTS

META_TIMINGS = ("elapsed_ms", "node_ms")


def without_timings(record: dict[str, Any]) -> dict[str, Any]:
    """A results.jsonl record without what differs by nature between runs (module docstring)."""
    out = {k: v for k, v in record.items() if k != "timings"}
    report = out.get("report")
    if isinstance(report, dict) and isinstance(report.get("meta"), dict):
        meta = {k: v for k, v in report["meta"].items() if k not in META_TIMINGS}
        out["report"] = {**report, "meta": meta}
    return out


def read_results(out_dir: Path) -> dict[str, dict[str, Any]]:
    """The records of a run's results.jsonl by id (timings removed)."""
    lines = (out_dir / RESULTS).read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    return {r["id"]: without_timings(r) for r in records}


def first_difference(a: Any, b: Any, where: str = "") -> str:
    """Where two records first differ (a dotted path), with both values."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(a.keys() | b.keys()):
            if a.get(key) != b.get(key):
                return first_difference(a.get(key), b.get(key), f"{where}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{where}[{i}]")
    return f"{where.lstrip('.') or '(record)'}: {a!r} != {b!r}"


def differences(a: Path, b: Path) -> list[str]:
    """One line per item missing from a run or graded differently (empty when they agree)."""
    left, right = read_results(a), read_results(b)
    out = [f"{i}: only in {a}" for i in sorted(left.keys() - right.keys())]
    out += [f"{i}: only in {b}" for i in sorted(right.keys() - left.keys())]
    out += [
        f"{i}: {first_difference(left[i], right[i])}"
        for i in sorted(left.keys() & right.keys())
        if left[i] != right[i]
    ]
    return out
