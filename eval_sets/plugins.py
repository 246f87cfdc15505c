"""The registries of loaders and metrics, and the decorators that fill them.

Apart from `eval_sets.registry` so that a loader or a metric registers itself without importing
the module that reads the registries (which imports every built-in loader and metric): the
imports run one way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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
    """A registered loader: its function, the version of its reading, a line about it."""

    name: str
    fn: Loader
    version: str
    description: str


LOADERS: dict[str, LoaderSpec] = {}


def register_loader(name: str, *, version: str = "1", description: str = "") -> Callable[[F], F]:
    """Register a loader under `name`; a second loader with the same name is an error."""

    def wrap(fn: F) -> F:
        if name in LOADERS:
            raise ValueError(f"loader {name!r} is already registered ({LOADERS[name].fn.__module__})")
        doc = description or ((fn.__doc__ or "").strip().splitlines() or [""])[0]
        LOADERS[name] = LoaderSpec(name, fn, version, doc)  # type: ignore[arg-type]
        return fn

    return wrap


Metric = Callable[..., float | None]
METRICS: dict[str, Metric] = {}


def register_metric(name: str) -> Callable[[F], F]:
    """Register a metric function under `name`; duplicates are refused."""

    def wrap(fn: F) -> F:
        if name in METRICS:
            raise ValueError(f"metric {name!r} is already registered")
        METRICS[name] = fn  # type: ignore[assignment]
        return fn

    return wrap
