"""False positives of the detector of text addressed to the grader, on every development solution.

    stepgrade study addressed_scan [--data DIR] [--show N]

No development solution was written to a grader, so every hit is a false positive. Each set's
solution texts and steps (StepMathBench's whole outputs and human steps, ProcessBench's steps,
the perturbation set's reference and perturbed steps, MR-MATH's outputs and steps) are read
as they come, per half of the split by problem (`eval_sets.halves`); a solution counts as hit
when any of its texts is. Every hit is listed with the text the grade would cut. The judges'
published verdicts (`*_gpt4.jsonl`, `*_gpt3_5_turbo.jsonl`) and the answer pairs are not
solutions and are not read. Exit status 0; the counts are the result.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eval_sets.halves import HALVES, Half, half_of
from eval_sets.loaders.rows import read_records
from eval_sets.plugins import DatasetError, register_study
from eval_sets.study_cli import (
    DEFAULT_DATA,
    StudyInputError,
    add_data,
    require_folder,
    run_study,
)
from scoring.judge import addressed_spans

# file -> (the problem's field, the fields holding solution text or steps)
SOURCES: dict[str, tuple[str, tuple[str, ...]]] = {
    "stepmathbench_dev.jsonl": ("question", ("model_output", "gold_step")),
    "processbench_dev.jsonl": ("problem", ("steps",)),
    "perturbation_dev.jsonl": ("question", ("reference_steps", "hypothesis_steps")),
    "mr_math_invalid_dev.jsonl": ("question", ("model_output", "model_output_step_format")),
    "mr_math_redundant_dev.jsonl": ("question", ("model_output_step_format",)),
}


@dataclass(frozen=True)
class Hit:
    """One text of one solution the detector flagged, and what it would cut."""

    source: str
    row: str
    half: Half
    field: str
    cut: tuple[str, ...]
    readings: tuple[str, ...]


def _texts(value: Any) -> Iterator[str]:
    """The texts a field holds: a string, or the strings of a (nested) list of steps."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _texts(item)


def scan_file(path: Path) -> tuple[dict[Half, int], dict[Half, int], dict[Half, int], list[Hit]]:
    """(solutions, texts read, solutions hit) per half, and the hits, for one dev file."""
    problem_field, fields = SOURCES[path.name]
    solutions = dict.fromkeys(HALVES, 0)
    texts = dict.fromkeys(HALVES, 0)
    hit_rows = dict.fromkeys(HALVES, 0)
    hits: list[Hit] = []
    try:
        records = list(read_records(path))
    except DatasetError as err:
        raise StudyInputError(str(err)) from err
    for number, row in records:
        half = half_of(str(row.get(problem_field, "")))
        solutions[half] += 1
        found = False
        for field in fields:
            for text in _texts(row.get(field)):
                texts[half] += 1
                spans = addressed_spans(text)
                if spans:
                    found = True
                    hits.append(
                        Hit(
                            path.name,
                            str(row.get("uid") or row.get("id") or number),
                            half,
                            field,
                            tuple(text[s.start : s.end] for s in spans),
                            tuple(s.reading() for s in spans),
                        )
                    )
        hit_rows[half] += found
    return solutions, texts, hit_rows, hits


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    add_data(parser, "folder with the development sets", default=DEFAULT_DATA)
    parser.add_argument("--show", type=int, default=200, help="hits listed at most")


@register_study("addressed_scan", arguments=add_arguments)
def addressed_scan(args: argparse.Namespace) -> int:
    """Print, per dev set and half, the solutions read and hit, then every hit."""
    require_folder(args.data)
    print(f"{'set':<28} {'half':<6} {'solutions':>9} {'texts':>7} {'hit':>4}")
    every: list[Hit] = []
    for name in SOURCES:
        path = args.data / name
        if not path.is_file():
            print(f"{name:<28} (absent: skipped)")
            continue
        solutions, texts, hit_rows, hits = scan_file(path)
        every += hits
        for half in HALVES:
            print(f"{name:<28} {half:<6} {solutions[half]:>9} {texts[half]:>7} {hit_rows[half]:>4}")
    print(f"\n{len(every)} texts hit")
    for hit in every[: args.show]:
        print(f"- {hit.source} {hit.row} ({hit.half}, {hit.field}): cut {list(hit.cut)}")
        for reading in hit.readings:
            print(f"    {reading}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.addressed_scan`: the study over this process's arguments."""
    return run_study("addressed_scan", argv)


if __name__ == "__main__":
    raise SystemExit(main())
