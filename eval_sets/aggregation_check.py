"""Check Eq. 1 against StepMathBench: human step labels must give every item's gold scores.

    python -m eval_sets.aggregation_check PATH/stepmathbench_dev.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from scoring.schema import ProblemType
from scoring.score import parse_human_label, score_solution

TYPES: dict[str, ProblemType] = {"Calculation": "calculation", "Proof": "proof",
                               "Open-ended": "open_ended"}


def main(argv: list[str] | None = None) -> int:
    """Run the check: 0 when every item's gold scores come out, 1 when one does not, 2 on bad
    input."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path, help="StepMathBench JSON lines (gold_step_score, type)")
    args = parser.parse_args(argv)
    if not args.path.is_file():
        print(f"aggregation_check: no such file: {args.path}", file=sys.stderr)
        return 2
    total = score_ok = binary_ok = 0
    for number, line in enumerate(args.path.open(encoding="utf-8"), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        try:
            labels = [parse_human_label(s) for s in row["gold_step_score"]]
            result = score_solution(labels, TYPES[row["type"]])
        except (KeyError, ValueError) as err:
            print(f"aggregation_check: line {number}: {err}", file=sys.stderr)
            return 2
        total += 1
        score_ok += result.score == row["gold_score"]
        binary_ok += result.binary == row["gold_score_01"]
    print(f"items {total}: gold_score reproduced {score_ok}/{total}, gold_score_01 {binary_ok}/{total}")
    return 0 if score_ok == binary_ok == total else 1


if __name__ == "__main__":
    sys.exit(main())
