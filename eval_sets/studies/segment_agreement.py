"""How close the offline segmenter's step counts are to a human segmentation.

    stepgrade study segment_agreement PATH/stepmathbench_dev.jsonl [PATH/mr_math_invalid_dev.jsonl]

Prints, per file, the share of items with exactly the human number of steps and the mean absolute
difference, for sentence splitting (the default) and for line splitting. A measurement, not a
test: humans cut StepMathBench into paragraphs, the segmenter into sentences.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval_sets.loaders.rows import read_records
from eval_sets.plugins import DatasetError, register_study
from eval_sets.study_cli import StudyInputError, require_file, run_study
from scoring.steps import SegmentConfig, segment_steps

HUMAN_STEPS = ("gold_step", "model_output_step_format")


def _pairs(path: Path, config: SegmentConfig) -> list[tuple[int, int]]:
    pairs = []
    try:
        rows = [row for _, row in read_records(path)]
    except DatasetError as err:
        raise StudyInputError(str(err)) from err
    for row in rows:
        human = next((row[k] for k in HUMAN_STEPS if k in row), None)
        if human is None or not isinstance(row.get("model_output"), str):
            continue
        pairs.append((len(segment_steps(row["model_output"], config=config)), len(human)))
    return pairs


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    parser.add_argument("paths", type=Path, nargs="+")


@register_study("segment_agreement", arguments=add_arguments)
def segment_agreement(args: argparse.Namespace) -> int:
    """Print each file's step-count agreement for both splittings; 2 on a missing file or one with
    no usable rows."""
    for path in args.paths:
        require_file(path)
        for name, config in (
            ("sentences", SegmentConfig()),
            ("lines", SegmentConfig(split_sentences=False)),
        ):
            pairs = _pairs(path, config)
            if not pairs:
                raise StudyInputError(f"{path}: no rows with model_output and human steps")
            exact = sum(a == b for a, b in pairs) / len(pairs)
            mad = sum(abs(a - b) for a, b in pairs) / len(pairs)
            print(
                f"{path.name:<32} {name:<9} items {len(pairs):>4}  exact {exact:.2f}  "
                f"mean |diff| {mad:.2f}"
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.segment_agreement`: the study over this process's arguments."""
    return run_study("segment_agreement", argv)


if __name__ == "__main__":
    sys.exit(main())
