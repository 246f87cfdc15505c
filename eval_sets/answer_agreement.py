"""Agreement of `is_equivalent` with labelled answer pairs (e.g. answer_equivalence_cases.jsonl).

    python -m eval_sets.answer_agreement PATH [--timeout SECONDS] [--show-disagreements]
                                              [--without READING ...] [--ablation]
    python -m eval_sets.answer_agreement --solutions PATH [PATH ...]
    python -m eval_sets.answer_agreement PATH --inexact   # every pair within rounding

Each line needs `gold`, `pred` and `equal`; `source`, when present, groups the figures. Counted
are the string pairs not disabled in their source suite: rows with `disabled_in_source: true`
(tests their own suite skips) and rows whose gold or pred is not a string (a suite's Python
numbers or None) are left out and reported as skipped.

The pairs split into a fit half and a check half by a hash of the gold string, so every pair
sharing a gold lands in the same half: readings are fitted on one half and judged on the other.
The table also gives, for each reading that decided a pair, how often its verdict was the label
(its precision), per half; `--without` leaves readings out and `--ablation` prints both halves
with each reading left out in turn (a reading that helps the fit half and hurts the check half
does not belong in the configuration).

The pairs come without a problem or a solution, so the rounding reading
(`scoring.answer_rounding`, which needs one showing a rounded quantity) decides none of them;
`--inexact` compares every pair as if it had been computed with rounded quantities, which is
the tolerance ungated (Qwen2.5-Math's reading), to measure what the gate keeps out.

With `--solutions`, the files are graded solutions instead (StepMathBench rows: `model_output`,
`answers`, the human label of the final step; ProcessBench rows: `steps`, `reference_answer`,
`final_answer_correct`; MR-MATH rows: `model_output`, `ground_truth_answer`,
`model_output_answer_correctness`): `check_answer` finds each solution's answer (given the
problem, as a grade does) and its verdict is set against the human one, split into the
benchmark's halves by problem (`eval_sets.halves`) and into stated (anchored) and guessed answers. That measures extraction, where the
pairs measure equivalence. The verdicts the rounding reading changed (against `check_answer`
without it) are counted with how many of them agree with the human one, per half.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from eval_sets.halves import half_of as problem_half
from eval_sets.loaders._io import read_records, require
from eval_sets.registry import DatasetError
from scoring.answer import Equivalence, Outcome, check_answer, compare_answers, default_verifier
from scoring.answer_readings import READINGS, Reading

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

    Raises DatasetError naming the line when a row is not JSON or lacks gold, pred or equal.
    """
    pairs: list[Pair] = []
    skipped = 0
    for number, row in read_records(path):
        require(path, number, row, ("gold", "pred", "equal"), "labelled answer pair")
        if not counted(row):
            skipped += 1
            continue
        source = str(row.get("source", "all")).split(":")[0]
        pairs.append(Pair(row["gold"], row["pred"], bool(row["equal"]), source, number))
    return pairs, skipped


class CachedVerifier:
    """The default math-verify pool, remembering verdicts: ablation runs repeat comparisons."""

    def __init__(self) -> None:
        self._seen: dict[tuple[tuple[str, ...], str], Outcome] = {}

    def outcome(self, golds: Sequence[str], pred: str, timeout: float | None = None) -> Outcome:
        key = (tuple(golds), pred)
        if key not in self._seen:
            self._seen[key] = default_verifier().outcome(golds, pred, timeout)
        return self._seen[key]


def judge(pairs: list[Pair], readings: Sequence[tuple[str, Reading]], timeout: float,
          verifier: CachedVerifier, inexact: bool = False) -> tuple[list[Equivalence], list[float]]:
    """Each pair's verdict and the milliseconds it took (math-verify's from a cold cache)."""
    results, times = [], []
    for p in pairs:
        t0 = time.perf_counter()
        results.append(compare_answers(p.gold, p.pred, timeout=timeout, verifier=verifier,
                                       readings=readings, inexact=inexact))
        times.append((time.perf_counter() - t0) * 1000.0)
    return results, times


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def halves(pairs: list[Pair], results: list[Equivalence]) -> dict[str, tuple[int, int]]:
    """(agreeing, total) per half."""
    out = {h: (0, 0) for h in HALVES}
    for pair, result in zip(pairs, results, strict=True):
        agree, total = out[half_of(pair.gold)]
        out[half_of(pair.gold)] = (agree + (bool(result.verdict) == pair.equal), total + 1)
    return out


@dataclass(frozen=True)
class Solution:
    """A graded solution whose final answer a human judged."""

    problem: str
    text: str
    golds: tuple[str, ...]
    correct: bool


def read_solutions(path: Path) -> list[Solution]:
    """StepMathBench and ProcessBench rows that have a reference answer (proofs have none)."""
    out = []
    for _, row in read_records(path):
        if "final_answer_correct" in row and row.get("reference_answer"):
            out.append(Solution(str(row.get("problem", "")), "\n\n".join(map(str, row["steps"])),
                                (str(row["reference_answer"]),), bool(row["final_answer_correct"])))
        elif row.get("answers") and row.get("gold_step_score") and row.get("type") != "Proof":
            golds = row["answers"] if isinstance(row["answers"], list) else [row["answers"]]
            out.append(Solution(str(row.get("question", "")), str(row.get("model_output", "")),
                                tuple(map(str, golds)), row["gold_step_score"][-1] == "1"))
        elif row.get("model_output_answer_correctness") and row.get("ground_truth_answer"):
            out.append(Solution(str(row.get("question", "")), str(row.get("model_output", "")),
                                (str(row["ground_truth_answer"]),),
                                row["model_output_answer_correctness"] == "correct"))
    return out


def solutions_report(paths: list[Path], timeout: float) -> int:
    """Print how often `check_answer` agrees with the human verdict, by half and by anchoring."""
    for path in paths:
        agree: Counter[str] = Counter()
        total: Counter[str] = Counter()
        changed: Counter[str] = Counter()
        changed_agree: Counter[str] = Counter()
        for item in read_solutions(path):
            check = check_answer(item.text, list(item.golds), timeout=timeout, problem=item.problem)
            ok = bool(check.correct) == item.correct
            half = problem_half(item.problem)
            for key in (half, "stated" if check.anchored else "guessed"):
                total[key] += 1
                agree[key] += ok
            if check.reading == "rounded_computation":
                exact = check_answer(item.text, list(item.golds), timeout=timeout,
                                     problem=item.problem, rounding=False)
                if bool(exact.correct) != bool(check.correct):
                    changed[half] += 1
                    changed_agree[half] += ok
        n, n_agree = total["fit"] + total["check"], agree["fit"] + agree["check"]
        print(f"{path.name}: answer verdict agrees with the human one on {_share(n_agree, n)}")
        for key in ("fit", "check", "stated", "guessed"):
            print(f"  {key:<10} {_share(agree[key], total[key])}")
        print("  verdicts the rounding reading changed, agreeing with the human one: "
              + ", ".join(f"{h} {_share(changed_agree[h], changed[h]).strip()}" for h in HALVES))
    return 0


def _share(agree: int, total: int) -> str:
    return f"{agree:>4}/{total:<4} {agree / total:6.1%}" if total else f"{0:>4}/{0:<4}    -  "


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", type=Path)
    parser.add_argument("more", type=Path, nargs="*", help=argparse.SUPPRESS)
    parser.add_argument("--solutions", action="store_true",
                        help="the files are graded solutions: measure the whole answer check")
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--show-disagreements", action="store_true",
                        help="print every pair whose verdict differs from its label")
    parser.add_argument("--without", action="append", default=[], metavar="READING",
                        help="leave a reading out (repeatable)")
    parser.add_argument("--inexact", action="store_true",
                        help="compare every pair within rounding (the rounding reading ungated)")
    parser.add_argument("--ablation", action="store_true",
                        help="also measure both halves with each reading left out in turn")
    args = parser.parse_args(argv)
    if args.more and not args.solutions:
        print("answer_agreement: one file of labelled pairs at a time (several only with "
              "--solutions)", file=sys.stderr)
        return 2
    for path in (args.path, *args.more):
        if not path.is_file():
            print(f"answer_agreement: no such file: {path}", file=sys.stderr)
            return 2
    if args.solutions:
        try:
            return solutions_report([args.path, *args.more], args.timeout)
        except DatasetError as exc:
            print(f"answer_agreement: {exc}", file=sys.stderr)
            return 2
    try:
        pairs, skipped = read_pairs(args.path)
    except DatasetError as exc:
        print(f"answer_agreement: {exc}", file=sys.stderr)
        return 2
    unknown = set(args.without) - {name for name, _ in READINGS}
    if unknown:
        print(f"answer_agreement: no reading named {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    readings = [(n, r) for n, r in READINGS if n not in args.without]
    verifier = CachedVerifier()
    verifier.outcome(["1/2"], "0.5")  # start the worker before timing
    start = time.perf_counter()
    results, times = judge(pairs, readings, args.timeout, verifier, args.inexact)
    elapsed = time.perf_counter() - start
    report(pairs, results, skipped, elapsed, args.show_disagreements)
    in_process = [t for t, r in zip(times, results, strict=True) if r.reading != "math_verify"]
    worker = [t for t, r in zip(times, results, strict=True) if r.reading == "math_verify"]
    for name, group in (("decided in process", in_process), ("sent to math-verify", worker)):
        print(f"  latency, {name:<24} pairs {len(group):>4}  p50 {_percentile(group, 0.5):7.2f} ms"
              f"  p95 {_percentile(group, 0.95):7.2f} ms")
    if args.ablation:
        print(f"  {'left out':<34} {'fit':>16} {'check':>16}")
        for name, _ in readings:
            fewer = [(n, r) for n, r in readings if n != name]
            split = halves(pairs, judge(pairs, fewer, args.timeout, verifier, args.inexact)[0])
            print(f"  {name:<34} {_share(*split['fit']):>16} {_share(*split['check']):>16}")
    return 0


def report(pairs: list[Pair], results: list[Equivalence], skipped: int, elapsed: float,
           show_disagreements: bool) -> None:
    """Print agreement by half and source, and each reading's precision by half."""
    agree: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    for pair, result in zip(pairs, results, strict=True):
        ok = bool(result.verdict) == pair.equal
        half = half_of(pair.gold)
        reading = result.reading + (" (restated)" if result.restated else "")
        for key in ((half, pair.source), (half, "all"), (half, f"reading:{reading}")):
            total[key] += 1
            agree[key] += ok
        if show_disagreements and not ok:
            print(f"  line {pair.line} label {pair.equal} got {result.verdict} "
                  f"({reading}): {pair.gold!r} vs {pair.pred[:160]!r}")
    n = len(pairs)
    n_agree = sum(agree[h, "all"] for h in HALVES)
    undecided = sum(r.verdict is None for r in results)
    print(f"agreement {n_agree}/{n} = {n_agree / max(n, 1):.1%} "
          f"(fit {_share(agree['fit', 'all'], total['fit', 'all'])}, "
          f"check {_share(agree['check', 'all'], total['check', 'all'])}); "
          f"skipped {skipped} rows (disabled in source or not a string pair); "
          f"undecided (None) {undecided}; wall time {elapsed:.1f} s")
    for title, prefix in (("source", ""), ("reading that decided", "reading:")):
        print(f"  {title:<34} {'fit':>16} {'check':>16} {'total':>16}")
        keys = sorted({k for _, k in total if k != "all" and k.startswith(prefix)
                       and (prefix or not k.startswith("reading:"))})
        for key in keys:
            cells = [_share(agree[h, key], total[h, key]) for h in HALVES]
            both = _share(agree["fit", key] + agree["check", key],
                          total["fit", key] + total["check", key])
            print(f"  {key.removeprefix(prefix):<34} {cells[0]:>16} {cells[1]:>16} {both:>16}")


if __name__ == "__main__":
    sys.exit(main())
