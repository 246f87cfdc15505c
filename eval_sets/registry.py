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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from eval_sets.items import GoldItem, RowError

Loader = Callable[[Path], Iterable[GoldItem | RowError]]
F = TypeVar("F", bound=Callable[..., object])


class DatasetError(ValueError):
    """A file that does not fit its loader; the message names the file, line and missing fields."""


@dataclass(frozen=True)
class LoaderSpec:
    name: str
    fn: Loader
    version: str
    description: str


_LOADERS: dict[str, LoaderSpec] = {}


def register_loader(name: str, *, version: str = "1", description: str = "") -> Callable[[F], F]:
    """Register a loader under `name`; a second loader with the same name is an error."""

    def wrap(fn: F) -> F:
        if name in _LOADERS:
            raise ValueError(f"loader {name!r} is already registered ({_LOADERS[name].fn.__module__})")
        doc = description or ((fn.__doc__ or "").strip().splitlines() or [""])[0]
        _LOADERS[name] = LoaderSpec(name, fn, version, doc)  # type: ignore[arg-type]
        return fn

    return wrap


def _ensure_loaded() -> None:
    import eval_sets.loaders  # noqa: F401  (registers the built-in loaders)


def loader_names() -> list[str]:
    _ensure_loaded()
    return sorted(_LOADERS)


def get_loader(name: str) -> LoaderSpec:
    _ensure_loaded()
    if name not in _LOADERS:
        raise DatasetError(f"unknown dataset kind {name!r}; known: {', '.join(sorted(_LOADERS))}")
    return _LOADERS[name]


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
                entry = RowError(key=f"{entry.id}#{copies[entry.id]}",
                                 reason=f"{path}: duplicate item id {entry.id!r} (the first is kept)")
        if limit is not None and len(items) + len(failed) >= limit:
            if readable:
                break
            continue  # read on only to learn whether any row of the file is readable
        if isinstance(entry, GoldItem):
            items.append(entry)
        else:
            failed.append(entry)
    if unreadable and not readable:
        raise DatasetError(f"{path}: no row could be read as {kind} ({unreadable} tried); the "
                           f"first: {first_reason}")
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

Metric = Callable[..., float | None]
_METRICS: dict[str, Metric] = {}


def register_metric(name: str) -> Callable[[F], F]:
    """Register a metric function under `name`; duplicates are refused."""

    def wrap(fn: F) -> F:
        if name in _METRICS:
            raise ValueError(f"metric {name!r} is already registered")
        _METRICS[name] = fn  # type: ignore[assignment]
        return fn

    return wrap


def get_metric(name: str) -> Metric:
    import eval_sets.metrics  # noqa: F401  (registers the built-in metrics)

    if name not in _METRICS:
        raise KeyError(f"unknown metric {name!r}; known: {', '.join(sorted(_METRICS))}")
    return _METRICS[name]


def metric_names() -> list[str]:
    import eval_sets.metrics  # noqa: F401

    return sorted(_METRICS)
