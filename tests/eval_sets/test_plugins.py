"""The loader, metric and study registries: what a registration records, and duplicates refused."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from eval_sets.plugins import (
    LOADERS,
    METRICS,
    STUDIES,
    DatasetError,
    register_loader,
    register_metric,
    register_study,
)
from eval_sets.study_cli import load_studies


def test_a_second_study_of_the_same_name_is_refused():
    def add(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--n", type=int, default=1)

    @register_study("a_test_study", arguments=add)
    def first(args: argparse.Namespace) -> int:
        return 0

    try:
        with pytest.raises(ValueError, match="already registered"):

            @register_study("a_test_study", arguments=add)
            def second(args: argparse.Namespace) -> int:
                return 0

        assert STUDIES["a_test_study"].run is first
    finally:
        del STUDIES["a_test_study"]


def test_a_loader_is_registered_with_its_version_and_first_doc_line() -> None:
    def load(path: Path) -> list:
        """Read nothing.

        More text that is not the description."""
        return []

    try:
        register_loader("a_test_loader", version="3")(load)
        spec = LOADERS["a_test_loader"]
        assert (spec.name, spec.fn, spec.version, spec.description) == (
            "a_test_loader",
            load,
            "3",
            "Read nothing.",
        )
        with pytest.raises(ValueError, match="loader 'a_test_loader' is already registered"):
            register_loader("a_test_loader")(load)
    finally:
        del LOADERS["a_test_loader"]


def test_a_given_description_wins_and_no_docstring_is_an_empty_one() -> None:
    try:
        register_loader("a_test_loader", description="said here")(lambda path: [])
        assert LOADERS["a_test_loader"].description == "said here"
        del LOADERS["a_test_loader"]
        register_loader("a_test_loader")(lambda path: [])
        assert LOADERS["a_test_loader"].description == ""
    finally:
        LOADERS.pop("a_test_loader", None)


def test_a_study_is_described_by_its_modules_first_paragraph_on_one_line() -> None:

    spec = load_studies()["aggregation_check"]
    assert spec.description == (
        "Check Eq. 1 against StepMathBench: human step labels must give every item's gold scores."
    )


def test_a_metric_name_is_registered_once() -> None:
    def metric(pred, gold) -> float:
        return 0.0

    try:
        assert (
            register_metric("a_test_metric")(metric) is metric
            and METRICS["a_test_metric"] is metric
        )
        with pytest.raises(ValueError, match="metric 'a_test_metric' is already registered"):
            register_metric("a_test_metric")(metric)
    finally:
        del METRICS["a_test_metric"]


def test_dataset_errors_are_value_errors() -> None:
    assert issubclass(DatasetError, ValueError)
