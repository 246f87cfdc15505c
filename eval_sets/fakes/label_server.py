"""A test double, the label oracle as a server: an OpenAI-compatible endpoint that grades
StepMathBench items from their human labels, with seeded miss and false-alarm rates (see
label_oracle.py).

    python -m eval_sets.fakes.label_server --data stepmathbench.jsonl --port P \
        [--miss 0.3 --false-alarm 0.1 --seed 0] [--latency L]

`make bench-fallible` (eval_sets/studies/fallible_bench.py) runs `stepgrade bench grade --mode llm`
against it. It serves until killed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from eval_sets.fakes.label_oracle import ErrorRates, LabelOracle
from eval_sets.fakes.openai_server import FakeOpenAI


def _rate(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError("must be between 0 and 1")
    return value


def read_rows(path: Path) -> list[dict]:
    """The objects of a JSON-lines file, blank lines skipped."""
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]


def main(argv: list[str] | None = None) -> int:
    """Serve the label oracle on `--port` until killed; 2 when `--data` cannot be read."""
    parser = argparse.ArgumentParser(
        description="fake OpenAI-compatible judge answering from StepMathBench's human labels"
    )
    parser.add_argument("--data", type=Path, required=True, help="StepMathBench JSON lines")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument(
        "--miss", type=_rate, default=0.0, help="share of human-incorrect steps answered correct"
    )
    parser.add_argument(
        "--false-alarm",
        type=_rate,
        default=0.0,
        help="share of human-correct steps answered incorrect",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per answer")
    args = parser.parse_args(argv)
    try:
        rows = read_rows(args.data)
    except (OSError, ValueError) as err:
        print(f"label_server: cannot read {args.data}: {err}", file=sys.stderr)
        return 2
    oracle = LabelOracle(rows, ErrorRates(args.miss, args.false_alarm, args.seed))
    FakeOpenAI(oracle, latency=args.latency, port=args.port).serve()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
