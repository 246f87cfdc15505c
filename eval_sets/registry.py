"""Loaders and metrics registered by name, as in lm-evaluation-harness; duplicates are refused.

    @register_loader("stepmath")
    def load_stepmath(path: Path) -> Iterator[GoldItem]: ...

`read_dataset(kind, path, limit=..., subsets=...)` is the one entry point the runner uses: the
items, and the rows that could not be read (each a failed item of the run). A file none of whose
rows can be read is not that data set at all, and that is a DatasetError (a usage error).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import eval_sets.loaders  # registers the built-in loaders
import eval_sets.metrics  # noqa: F401  (registers the built-in metrics)
from eval_sets.items import GoldItem, RowError
from eval_sets.plugins import (
    LOADERS,
    METRICS,
    DatasetError,
    Loader,
    LoaderSpec,
    Metric,
    register_loader,
    register_metric,
)

__all__ = [
    "DatasetError",
    "Loaded",
    "Loader",
    "LoaderSpec",
    "Metric",
    "get_loader",
    "get_metric",
    "load_dataset",
    "loader_names",
    "metric_names",
    "read_dataset",
    "register_loader",
    "register_metric",
]


def loader_names() -> list[str]:
    """The registered loaders' names, sorted (`stepgrade bench list`)."""
    return sorted(LOADERS)


def get_loader(name: str) -> LoaderSpec:
    """The loader registered as `name`; a DatasetError naming the known ones otherwise."""
    if name not in LOADERS:
        raise DatasetError(f"unknown dataset kind {name!r}; known: {', '.join(sorted(LOADERS))}")
    return LOADERS[name]


def normalise_subset(name: str) -> str:
    """`Random Number`, `random_number` and `random-number` name the same subset."""
    return re.sub(r"[\s_\-]+", "_", name.strip().lower().replace("&", "and"))


@dataclass(frozen=True)
class Loaded:
    """What a file gave: the items to grade and the rows that could not be read, in file order."""

    items: list[GoldItem]
    failed: list[RowError]


def read_dataset(
    kind: str, path: Path, *, limit: int | None = None, subsets: Sequence[str] | None = None
) -> Loaded:
    """The items of `path` read by loader `kind`, filtered to `subsets`, the first `limit` rows
    kept (a row that could not be read counts: it is an item of the run, a failed one).

    Raises DatasetError when the file cannot be read at all, or when not one of its rows can
    (not JSON lines, fields of another data set): that is a wrong file, not a broken row.
    """
    spec = get_loader(kind)
    path = Path(path)
    if not path.exists():
        raise DatasetError(f"no such file or folder: {path}")
    wanted = {normalise_subset(s) for s in subsets} if subsets else None
    items: list[GoldItem] = []
    failed: list[RowError] = []
    copies: Counter[str] = Counter()
    readable, unreadable, first_reason = False, 0, ""
    for entry in spec.fn(path):
        if isinstance(entry, RowError):
            unreadable += 1
            first_reason = first_reason or entry.reason
        else:
            readable = True
            if wanted is not None and normalise_subset(entry.gold.subset or "") not in wanted:
                continue
            copies[entry.id] += 1
            if copies[entry.id] > 1:
                entry = RowError(
                    key=f"{entry.id}#{copies[entry.id]}",
                    reason=f"{path}: duplicate item id {entry.id!r} (the first is kept)",
                )
        if limit is not None and len(items) + len(failed) >= limit:
            if readable:
                break
            continue  # read on only to learn whether any row of the file is readable
        if isinstance(entry, GoldItem):
            items.append(entry)
        else:
            failed.append(entry)
    if unreadable and not readable:
        raise DatasetError(
            f"{path}: no row could be read as {kind} ({unreadable} tried); the "
            f"first: {first_reason}"
        )
    return Loaded(items, failed)


def load_dataset(
    kind: str, path: Path, *, limit: int | None = None, subsets: Sequence[str] | None = None
) -> list[GoldItem]:
    """Every selected item, or a DatasetError naming the first row that cannot be read (for tools
    that need the whole file, such as calibration; grading runs use `read_dataset`)."""
    loaded = read_dataset(kind, path, limit=limit, subsets=subsets)
    if loaded.failed:
        raise DatasetError(loaded.failed[0].reason)
    return loaded.items


# ----------------------------------------------------------------------------------- metrics


def get_metric(name: str) -> Metric:
    """The metric registered as `name`; a KeyError naming the known ones otherwise."""
    if name not in METRICS:
        raise KeyError(f"unknown metric {name!r}; known: {', '.join(sorted(METRICS))}")
    return METRICS[name]


def metric_names() -> list[str]:
    """The registered metrics' names, sorted."""
    return sorted(METRICS)
