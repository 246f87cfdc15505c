"""Helpers that start and stop processes: a fake model that cannot start stops the run by name."""

from __future__ import annotations

import pytest

from eval_sets.processes import fake_model


def test_a_fake_model_that_cannot_start_stops_the_bench_with_its_name(tmp_path) -> None:
    missing = ["--data", str(tmp_path / "none.jsonl")]
    with (
        pytest.raises(SystemExit, match="^fallible_bench: the label server exited with 2"),
        fake_model(
            "eval_sets.fakes.label_server",
            missing,
            "the label server",
            "fallible_bench",
            seconds=30,
        ),
    ):
        pytest.fail("a server that cannot read its data never answers")
