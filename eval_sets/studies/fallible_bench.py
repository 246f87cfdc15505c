"""`make bench-fallible`: LLM mode against a judge that errs like a real one, does fusion help?

For each seed, the label server (`eval_sets/fakes/label_server.py`, a test double) answers from StepMathBench's human labels but misses a share `--miss` of the
wrong steps and calls a share `--false-alarm` of the right ones wrong. `stepgrade bench grade
--mode llm --half H` grades each half against it, and the run's score_sources table gives, per
half, Corr / MSE / OR of the fused `score`, of `score_expected` and of Eq. 1 on the model's
labels alone. This prints them as mean ± spread (sample standard deviation) over the seeds, with
the fused score's Corr gain over the model alone, and writes `fallible.json` and `fallible.md`
into `--out`.

The decision layer is told the fake's rates (`STEPGRADE_LLM_SENSITIVITY` = 1 - miss,
`STEPGRADE_LLM_FALSE_ALARM` = false alarm), as a user who measured their model would tell it,
unless those variables are already set.

    stepgrade study fallible_bench --data PATH/stepmathbench_dev.jsonl --out DIR \
        [--miss 0.3 --false-alarm 0.1 --seeds 0 1 2 --halves fit check]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from eval_sets.halves import HALVES
from eval_sets.plugins import register_study
from eval_sets.processes import fake_model, llm_grading_env, stepgrade_command
from eval_sets.study_cli import (
    add_answer_timeout,
    add_data,
    add_limit,
    add_out,
    require_file,
    run_study,
)

READINGS = ("score", "score_expected", "model labels alone")
METRICS = ("Corr", "MSE", "OR")
READY_TIMEOUT_S = 60.0

# (seed, half) -> reading -> metric -> value, as read from each run's summary.json
Runs = Mapping[tuple[int, str], Mapping[str, Mapping[str, float | None]]]


@dataclass(frozen=True)
class Spread:
    """A figure over the seeds: mean, sample standard deviation (None for one seed), runs."""

    mean: float | None
    sd: float | None
    n: int

    @classmethod
    def of(cls, values: Sequence[float | None]) -> Spread:
        """The spread of the seeds' values, the missing ones (None) left out."""
        known = [v for v in values if v is not None]
        if not known:
            return cls(None, None, 0)
        sd = statistics.stdev(known) if len(known) > 1 else None
        return cls(statistics.fmean(known), sd, len(known))

    def text(self, digits: int = 3) -> str:
        """`mean ± sd` for a table cell; `–` when no seed had a value."""
        if self.mean is None:
            return "–"
        return f"{self.mean:.{digits}f}" + ("" if self.sd is None else f" ± {self.sd:.{digits}f}")


def summarise_runs(runs: Runs, halves: Sequence[str]) -> dict[str, dict[str, dict[str, Spread]]]:
    """half -> reading (and "fused - model alone", the Corr gain) -> metric -> Spread."""
    out: dict[str, dict[str, dict[str, Spread]]] = {}
    for half in halves:
        mine = [table for (_, h), table in sorted(runs.items()) if h == half]
        out[half] = {
            reading: {m: Spread.of([t.get(reading, {}).get(m) for t in mine]) for m in METRICS}
            for reading in READINGS
            if any(reading in t for t in mine)
        }
        gains = [_gain(t) for t in mine]
        out[half]["fused - model alone"] = {"Corr": Spread.of(gains)}
    return out


def _gain(table: Mapping[str, Mapping[str, float | None]]) -> float | None:
    fused = table.get("score", {}).get("Corr")
    alone = table.get("model labels alone", {}).get("Corr")
    return None if fused is None or alone is None else fused - alone


def to_markdown(summary: Mapping[str, Mapping[str, Mapping[str, Spread]]], title: str) -> str:
    """The summary as a Markdown table under `title`: a row per half and reading, mean ± sd per
    metric."""
    lines = [
        f"### {title}",
        "",
        "| half | score | Corr | MSE | OR | seeds |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for half, readings in summary.items():
        for reading, metrics in readings.items():
            cells = [metrics[m].text() if m in metrics else "" for m in METRICS]
            seeds = max(s.n for s in metrics.values())
            lines.append(f"| {half} | {reading} | " + " | ".join(cells) + f" | {seeds} |")
    return "\n".join(lines) + "\n"


def read_run(out_dir: Path) -> dict[str, dict[str, float | None]]:
    """The score_sources rows of one run's summary.json."""
    summary = json.loads((out_dir / "summary.json").read_text(encoding="utf-8"))
    table = summary["tables"].get("score_sources")
    if table is None:
        raise SystemExit(
            f"fallible_bench: {out_dir}/summary.json has no score_sources table "
            "(did the grades carry model labels?)"
        )
    return table["rows"]


def grading_env(base_url: str, miss: float, false_alarm: float) -> dict[str, str]:
    """The environment of `stepgrade bench grade` against the label server at `base_url`.

    Recording or replaying would grade from a cassette, not from the fallible judge; the judge's
    rates are told to the decision layer unless the user set them.
    """
    env = llm_grading_env(base_url, "fake-model")
    # Reliability needs 0 < false alarm < sensitivity < 1.
    env.setdefault("STEPGRADE_LLM_SENSITIVITY", f"{min(max(1.0 - miss, 0.002), 0.999):g}")
    env.setdefault("STEPGRADE_LLM_FALSE_ALARM", f"{min(max(false_alarm, 0.001), 0.998):g}")
    return env


def run_seed(args: argparse.Namespace, seed: int) -> None:
    """Start the label server for `seed`, grade each half against it, stop it."""
    oracle = [
        "--data",
        str(args.data),
        "--miss",
        str(args.miss),
        "--false-alarm",
        str(args.false_alarm),
        "--seed",
        str(seed),
    ]
    with fake_model(
        "eval_sets.fakes.label_server",
        oracle,
        "the label server",
        "fallible_bench",
        READY_TIMEOUT_S,
    ) as base_url:
        for half in args.halves:
            out = args.out / f"seed{seed}" / half
            shutil.rmtree(out, ignore_errors=True)  # a fresh run: no resumed items, no cache
            print(f"fallible_bench: seed {seed}, {half} half -> {out}", file=sys.stderr)
            done = subprocess.run(
                [
                    *stepgrade_command(),
                    "bench",
                    "grade",
                    "--dataset",
                    "stepmath",
                    "--path",
                    str(args.data),
                    "--mode",
                    "llm",
                    "--half",
                    half,
                    "--out",
                    str(out),
                    "--answer-timeout",
                    str(args.answer_timeout),
                    "--concurrency",
                    str(args.concurrency),
                    "--no-progress",
                    *(["--limit", str(args.limit)] if args.limit else []),
                ],
                env=grading_env(base_url, args.miss, args.false_alarm),
                stdout=subprocess.DEVNULL,
                check=False,
            )
            if done.returncode not in (0, 1):  # 1: some items failed; the summary lists them
                raise SystemExit(
                    f"fallible_bench: stepgrade bench grade exited with "
                    f"{done.returncode} (seed {seed}, {half} half)"
                )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    add_data(parser, "StepMathBench JSON lines", required=True)
    add_out(parser)
    parser.add_argument("--miss", type=float, default=0.3)
    parser.add_argument("--false-alarm", type=float, default=0.1)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    parser.add_argument("--halves", nargs="+", choices=list(HALVES), default=list(HALVES))
    parser.add_argument("--concurrency", type=int, default=4, help="items in flight per run")
    add_limit(parser, "grade the first N items of each half only")
    add_answer_timeout(parser)


@register_study("fallible_bench", arguments=add_arguments)
def fallible_bench(args: argparse.Namespace) -> int:
    """Grade every seed, then print the summary and write fallible.md and fallible.json; 2 when
    `--data` is missing."""
    require_file(args.data)
    start = time.perf_counter()
    for seed in args.seeds:
        run_seed(args, seed)
    runs = {
        (seed, half): read_run(args.out / f"seed{seed}" / half)
        for seed in args.seeds
        for half in args.halves
    }
    summary = summarise_runs(runs, args.halves)
    title = (
        f"LLM mode against the fallible fake (miss {args.miss:g}, false alarm "
        f"{args.false_alarm:g}; seeds {' '.join(map(str, args.seeds))}): mean ± sd"
    )
    markdown = to_markdown(summary, title)
    print("\n" + markdown)
    print(f"{time.perf_counter() - start:.0f} s; runs in {args.out}/seed*/<half>/")
    (args.out / "fallible.md").write_text(markdown, encoding="utf-8")
    data = {
        "miss": args.miss,
        "false_alarm": args.false_alarm,
        "seeds": args.seeds,
        "runs": {f"seed{s}/{h}": table for (s, h), table in runs.items()},
        "summary": {
            h: {r: {m: vars(s) for m, s in ms.items()} for r, ms in rs.items()}
            for h, rs in summary.items()
        },
    }
    (args.out / "fallible.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.fallible_bench`: the study over this process's arguments."""
    return run_study("fallible_bench", argv)


if __name__ == "__main__":
    raise SystemExit(main())
