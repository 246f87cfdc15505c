"""The options of `stepgrade calibrate`: what is required, the defaults, the key from the
environment."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from eval_sets.calibrate.corrections_args import DEFAULT_WEIGHT, HTTP_TIMEOUT, add_arguments


def parser() -> argparse.ArgumentParser:
    out = argparse.ArgumentParser(prog="stepgrade calibrate")
    add_arguments(out)
    return out


def test_defaults(monkeypatch) -> None:
    monkeypatch.delenv("STEPGRADE_API_KEY", raising=False)
    args = parser().parse_args(["--corrections", "export.jsonl", "--out", "c.json"])
    assert args.corrections == "export.jsonl" and args.out == Path("c.json")
    assert args.api_key is None and args.calibration is None
    assert args.weight == str(DEFAULT_WEIGHT) and args.timeout == HTTP_TIMEOUT


def test_the_key_defaults_to_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("STEPGRADE_API_KEY", "k-env")
    args = parser().parse_args(["--corrections", "u", "--out", "o"])
    assert args.api_key == "k-env"
    given = parser().parse_args(["--corrections", "u", "--out", "o", "--api-key", "k-2"])
    assert given.api_key == "k-2"


def test_weight_cv_and_a_number_are_kept_as_given() -> None:
    args = parser().parse_args(["--corrections", "u", "--out", "o", "--weight", "cv"])
    assert args.weight == "cv"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--out", "o"], "--corrections"),
        (["--corrections", "u"], "--out"),
        (["--corrections", "u", "--out", "o", "--timeout", "soon"], "invalid float value"),
    ],
)
def test_missing_or_malformed_options_exit_2(capsys, argv, message) -> None:
    with pytest.raises(SystemExit) as exit_:
        parser().parse_args(argv)
    assert exit_.value.code == 2 and message in capsys.readouterr().err
