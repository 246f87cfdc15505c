"""The registries of loaders, metrics and studies, and the decorators that fill them.

Apart from `eval_sets.registry` and `eval_sets.study_cli` so that a loader, a metric or a study
registers itself without importing the module that reads the registries (which imports every
built-in one): the imports run one way.
"""

from __future__ import annotations

import argparse
import sys
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
            raise ValueError(
                f"loader {name!r} is already registered ({LOADERS[name].fn.__module__})"
            )
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


Study = Callable[[argparse.Namespace], int]
Arguments = Callable[[argparse.ArgumentParser], None]


@dataclass(frozen=True)
class StudySpec:
    """A registered study: its name, the options it reads, the callable that runs it (returning
    the exit code), and a line about it (its module docstring's first paragraph)."""

    name: str
    run: Study
    arguments: Arguments
    description: str


STUDIES: dict[str, StudySpec] = {}


def register_study(name: str, *, arguments: Arguments) -> Callable[[Study], Study]:
    """Register a study under `name`, with the function that adds its options to a parser; a
    second study with the same name is an error."""

    def wrap(fn: Study) -> Study:
        if name in STUDIES:
            raise ValueError(
                f"study {name!r} is already registered ({STUDIES[name].run.__module__})"
            )
        module = sys.modules.get(fn.__module__)
        doc = ((module.__doc__ if module else None) or fn.__doc__ or "").strip()
        STUDIES[name] = StudySpec(name, fn, arguments, " ".join(doc.split("\n\n")[0].split()))
        return fn

    return wrap
