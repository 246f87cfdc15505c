"""Agreement of `is_equivalent` with labelled answer pairs (e.g. answer_equivalence_cases.jsonl).

    python -m eval_sets.answer_agreement PATH [--timeout SECONDS] [--show-disagreements]

Each line needs `gold`, `pred` and `equal`; `source`, when present, groups the figures. Counted
are the string pairs not disabled in their source suite: rows with `disabled_in_source: true`
(tests their own suite skips) and rows whose gold or pred is not a string (a suite's Python
numbers or None) are left out and reported as skipped.

The pairs split into a fit half and a check half by a hash of the gold string, so every pair
sharing a gold lands in the same half: readings are fitted on one half and judged on the other.
The table also gives, for each reading that decided a pair, how often its verdict was the label
(its precision).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from scoring.answer import compare_answers

HALVES = ("fit", "check")


@dataclass(frozen=True)
class Pair:
    """One labelled pair that counts."""

    gold: str
    pred: str
    equal: bool
    source: str
    line: int


def half_of(gold: str) -> str:
    """`fit` or `check`, by the first byte of the gold string's SHA-256: stable and gold-grouped."""
    return HALVES[hashlib.sha256(gold.encode("utf-8")).digest()[0] % 2]


def counted(row: dict[str, object]) -> bool:
    """A string pair that its source suite does not disable."""
    return (row.get("disabled_in_source") is not True
            and isinstance(row.get("gold"), str) and isinstance(row.get("pred"), str))


def read_pairs(path: Path) -> tuple[list[Pair], int]:
    """The counted pairs of a JSON-lines file and the number of rows skipped.

    Raises ValueError naming the line when a row is not JSON or lacks gold, pred or equal.
    """
    pairs: list[Pair] = []
    skipped = 0
    for number, line in enumerate(path.open(encoding="utf-8"), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"line {number} is not JSON ({exc.msg})") from None
        if not isinstance(row, dict) or not {"gold", "pred", "equal"} <= row.keys():
            raise ValueError(f"line {number} needs gold, pred and equal")
        if not counted(row):
            skipped += 1
            continue
        source = str(row.get("source", "all")).split(":")[0]
        pairs.append(Pair(row["gold"], row["pred"], bool(row["equal"]), source, number))
    return pairs, skipped


def _share(agree: int, total: int) -> str:
    return f"{agree:>4}/{total:<4} {agree / total:6.1%}" if total else f"{0:>4}/{0:<4}    -  "


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--show-disagreements", action="store_true",
                        help="print every pair whose verdict differs from its label")
    args = parser.parse_args(argv)
    if not args.path.is_file():
        print(f"answer_agreement: no such file: {args.path}", file=sys.stderr)
        return 2
    try:
        pairs, skipped = read_pairs(args.path)
    except (ValueError, UnicodeDecodeError) as exc:
        print(f"answer_agreement: {args.path}: {exc}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    agree: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    fired: Counter[str] = Counter()
    right: Counter[str] = Counter()
    undecided = 0
    for pair in pairs:
        result = compare_answers(pair.gold, pair.pred, timeout=args.timeout)
        ok = bool(result.verdict) == pair.equal
        undecided += result.verdict is None
        half = half_of(pair.gold)
        for key in ((half, pair.source), (half, "all")):
            total[key] += 1
            agree[key] += ok
        fired[result.reading] += 1
        right[result.reading] += ok
        if args.show_disagreements and not ok:
            print(f"  line {pair.line} label {pair.equal} got {result.verdict} "
                  f"({result.reading}): {pair.gold!r} vs {pair.pred[:160]!r}")
    n = len(pairs)
    n_agree = sum(agree[h, "all"] for h in HALVES)
    print(f"agreement {n_agree}/{n} = {n_agree / max(n, 1):.1%} "
          f"(fit {_share(agree['fit', 'all'], total['fit', 'all'])}, "
          f"check {_share(agree['check', 'all'], total['check', 'all'])}); "
          f"skipped {skipped} rows (disabled in source or not a string pair); "
          f"undecided (None) {undecided}; wall time {time.perf_counter() - start:.1f} s")
    print(f"  {'source':<34} {'fit':>16} {'check':>16} {'total':>16}")
    for source in sorted({s for _, s in total if s != "all"}):
        cells = [_share(agree[h, source], total[h, source]) for h in HALVES]
        both = _share(agree["fit", source] + agree["check", source],
                      total["fit", source] + total["check", source])
        print(f"  {source:<34} {cells[0]:>16} {cells[1]:>16} {both:>16}")
    print(f"  {'reading that decided':<34} {'agrees with the label':>22}")
    for reading, count in fired.most_common():
        print(f"  {reading:<34} {_share(right[reading], count):>22}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
