"""Agreement of `is_equivalent` with labelled answer pairs (e.g. answer_equivalence_cases.jsonl).

    python -m eval_sets.answer_agreement PATH [--timeout SECONDS]

Each line needs `gold`, `pred` and `equal`; `source`, when present, groups the figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from scoring.answer import is_equivalent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--timeout", type=float, default=2.0)
    args = parser.parse_args(argv)
    if not args.path.is_file():
        print(f"answer_agreement: no such file: {args.path}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    agree: Counter[str] = Counter()
    total: Counter[str] = Counter()
    undecided = 0
    for number, line in enumerate(args.path.open(encoding="utf-8"), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        if not {"gold", "pred", "equal"} <= row.keys():
            print(f"answer_agreement: line {number} needs gold, pred and equal", file=sys.stderr)
            return 2
        verdict = is_equivalent(row["gold"], row["pred"], timeout=args.timeout)
        source = str(row.get("source", "all")).split(":")[0]
        undecided += verdict is None
        total[source] += 1
        agree[source] += bool(verdict) == bool(row["equal"])
    n = sum(total.values())
    print(f"agreement {sum(agree.values())}/{n} = {sum(agree.values()) / max(n, 1):.1%}, "
          f"undecided (None) {undecided}, wall time {time.perf_counter() - start:.1f} s")
    for source in sorted(total):
        print(f"  {source:<40} {agree[source]:>4}/{total[source]:<4} "
              f"{agree[source] / total[source]:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
