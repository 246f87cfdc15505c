"""The soak study's bookkeeping: outcomes merged across client processes, resident memory of a
process tree, the verdict on its targets, and options that would measure nothing refused. (The
soak itself runs for minutes: `make soak`.)"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field

import pytest

from eval_sets.studies import soak as study
from eval_sets.studies.soak import MAX_RSS_GROWTH_MB, Outcome, main, rss_mb


def test_outcomes_add_up_and_keep_five_examples_in_all() -> None:
    total = Outcome(ok=3, degraded=1, latencies=[0.1], examples=["a", "b", "c"])
    total.merge(Outcome(ok=2, lost=1, server_errors=4, latencies=[0.2], examples=["d", "e", "f"]))
    assert (total.ok, total.degraded, total.lost, total.server_errors) == (5, 1, 1, 4)
    assert total.latencies == [0.1, 0.2] and total.examples == ["a", "b", "c", "d", "e"]


def test_resident_memory_of_this_process_and_of_none() -> None:
    assert rss_mb(os.getpid()) > 1.0
    assert rss_mb(2**22 + 1) == 0.0  # above the largest pid: no process, nothing counted


@dataclass
class FakeLlm:
    seen: list = field(default_factory=lambda: [object()] * 10)
    injected: dict = field(default_factory=lambda: {"500": 1, "429": 0})


ARGS = argparse.Namespace(clients=2, workers=1, latency=0.5)


def test_every_target_met_is_exit_0(capsys) -> None:
    total = Outcome(ok=8, degraded=1, latencies=[0.1, 0.3])
    marks = {"start": 500.0, "minute": 600.0, "end": 650.0}
    assert study._report(ARGS, total, marks, FakeLlm(), 60.0) == 0
    out = capsys.readouterr().out
    assert "10 LLM calls of which 1 faulty (10.0%: 500 1, 429 0)" in out
    assert "requests: 8 sent, 8 graded" in out and "growth after the first minute +50 MB" in out
    assert out.rstrip().endswith("targets: all met")


@pytest.mark.parametrize(
    ("total", "end", "missed"),
    [
        (Outcome(ok=5, server_errors=1, examples=["500: boom"]), 600.0, "MISSED 5xx"),
        (Outcome(ok=5, lost=2), 600.0, "MISSED lost"),
        (Outcome(ok=5, client_errors=1), 600.0, "MISSED 4xx"),
        (Outcome(ok=5), 600.0 + MAX_RSS_GROWTH_MB, "MISSED memory"),
    ],
)
def test_a_missed_target_is_named_and_exit_1(capsys, total, end, missed) -> None:
    marks = {"start": 500.0, "minute": 600.0, "end": end}
    assert study._report(ARGS, total, marks, FakeLlm(), 60.0) == 1
    assert f"targets: {missed}" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [["--clients", "0"], ["--workers", "0"], ["--client-processes", "-1"], ["--minutes", "0"]],
)
def test_options_that_would_measure_nothing_exit_2(capsys, argv) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2 and "must be" in capsys.readouterr().err
