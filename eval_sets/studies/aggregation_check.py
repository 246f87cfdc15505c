"""Check Eq. 1 against StepMathBench: human step labels must give every item's gold scores.

stepgrade study aggregation_check PATH/stepmathbench_dev.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from eval_sets.plugins import register_study
from eval_sets.study_cli import StudyInputError, require_file, run_study
from scoring.schema import ProblemType
from scoring.score import parse_human_label, score_solution

TYPES: dict[str, ProblemType] = {
    "Calculation": "calculation",
    "Proof": "proof",
    "Open-ended": "open_ended",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    parser.add_argument("path", type=Path, help="StepMathBench JSON lines (gold_step_score, type)")


@register_study("aggregation_check", arguments=add_arguments)
def aggregation_check(args: argparse.Namespace) -> int:
    """Run the check: 0 when every item's gold scores come out, 1 when one does not, 2 on bad
    input."""
    require_file(args.path)
    total = score_ok = binary_ok = 0
    for number, line in enumerate(args.path.open(encoding="utf-8"), 1):
        if not line.strip():
            continue
        try:  # json.JSONDecodeError is a ValueError
            row = json.loads(line)
            labels = [parse_human_label(s) for s in row["gold_step_score"]]
            result = score_solution(labels, TYPES[row["type"]])
            gold_score, gold_binary = row["gold_score"], row["gold_score_01"]
        except (KeyError, TypeError, ValueError) as err:
            raise StudyInputError(f"line {number}: {err}") from err
        total += 1
        score_ok += result.score == gold_score
        binary_ok += result.binary == gold_binary
    print(
        f"items {total}: gold_score reproduced {score_ok}/{total}, gold_score_01 {binary_ok}/{total}"
    )
    return 0 if score_ok == binary_ok == total else 1


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.aggregation_check`: the study over this process's arguments."""
    return run_study("aggregation_check", argv)


if __name__ == "__main__":
    sys.exit(main())
