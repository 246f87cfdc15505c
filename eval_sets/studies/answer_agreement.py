"""Agreement of `is_equivalent` with labelled answer pairs (e.g. answer_equivalence_cases.jsonl).

    stepgrade study answer_agreement PATH [--timeout SECONDS] [--show-disagreements]
                                          [--without READING ...] [--ablation]
    stepgrade study answer_agreement --solutions PATH [PATH ...] [--save FILE]
                                     [--changes-from FILE]
    stepgrade study answer_agreement PATH --inexact   # every pair within rounding
    stepgrade study answer_agreement PATH --write-routes FILE --with-solutions SOL [SOL ...]

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
(`scoring.answer.readings.rounding`, which needs one showing a rounded quantity) decides none of them;
`--inexact` compares every pair as if it had been computed with rounded quantities, which is
the tolerance ungated (Qwen2.5-Math's reading), to measure what the gate keeps out.

With `--solutions`, the files are graded solutions instead (StepMathBench rows: `model_output`,
`answers`, the human label of the final step; ProcessBench rows: `steps`, `reference_answer`,
`final_answer_correct`; MR-MATH rows: `model_output`, `ground_truth_answer`,
`model_output_answer_correctness`): `check_answer` finds each solution's answer (given the
problem, as a grade does) and its verdict is set against the human one, split into the
benchmark's halves by problem (`eval_sets.halves`) and into stated (anchored) and guessed
answers. That measures extraction, where the pairs measure equivalence. `--save FILE` writes
each solution's verdict as a JSON line (its key, the answer found, the verdict, the human one);
`--changes-from FILE` lists every verdict that differs from such a saved run, and whether the
new or the old one agrees with the human one. The verdicts the rounding reading changed (against `check_answer`
without it) are counted with how many of them agree with the human one, per half, and so are
the verdicts any reading added since (`NEW_READINGS`) changed.

Both tables give each answer route's precision (`scoring.answer.routes`): the share of the
verdicts it decided that agree with the label. `--write-routes FILE` measures the routes on the
fit halves of the pairs and of the `--with-solutions` files pooled and writes them as the route
statistics the grader reads (`scoring/answer/routes.json`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from eval_sets.calibrate.labelled import IN_SAMPLE_READINGS
from eval_sets.halves import half_of as problem_half
from eval_sets.loaders.rows import read_records, require
from eval_sets.plugins import register_study
from eval_sets.processes import percentile
from eval_sets.registry import DatasetError
from eval_sets.study_cli import StudyInputError, add_timeout, require_file, run_study
from scoring.answer import (
    READINGS,
    ROUTES,
    AnswerCheck,
    Equivalence,
    Outcome,
    Reading,
    Routes,
    RouteStats,
    check_answer,
    compare_answers,
    default_verifier,
)
from scoring.schema import AnswerRoute

HALVES = ("fit", "check")
# Readings that came with or after the answer routes: their changed verdicts are counted.
NEW_READINGS = frozenset({"worded_parts", "base_number", "option_set", "angle_units"})


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
    return (
        row.get("disabled_in_source") is not True
        and isinstance(row.get("gold"), str)
        and isinstance(row.get("pred"), str)
    )


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
        """The pool's verdict on (golds, pred), asked once per pair and remembered after."""
        key = (tuple(golds), pred)
        if key not in self._seen:
            self._seen[key] = default_verifier().outcome(golds, pred, timeout)
        return self._seen[key]


def judge(
    pairs: list[Pair],
    readings: Sequence[tuple[str, Reading]],
    timeout: float,
    verifier: CachedVerifier,
    inexact: bool = False,
    left_out: frozenset[str] = frozenset(),
) -> tuple[list[Equivalence], list[float]]:
    """Each pair's verdict and the milliseconds it took (math-verify's from a cold cache)."""
    results, times = [], []
    for p in pairs:
        t0 = time.perf_counter()
        results.append(
            compare_answers(
                p.gold,
                p.pred,
                timeout=timeout,
                verifier=verifier,
                readings=readings,
                inexact=inexact,
                left_out=left_out,
            )
        )
        times.append((time.perf_counter() - t0) * 1000.0)
    return results, times


def halves(pairs: list[Pair], results: list[Equivalence]) -> dict[str, tuple[int, int]]:
    """(agreeing, total) per half."""
    out = {h: (0, 0) for h in HALVES}
    for pair, result in zip(pairs, results, strict=True):
        agree, total = out[half_of(pair.gold)]
        out[half_of(pair.gold)] = (agree + (bool(result.verdict) == pair.equal), total + 1)
    return out


@dataclass(frozen=True)
class Solution:
    """A graded solution whose final answer a human judged; `key` names it in its file (the
    row's id, else its line)."""

    problem: str
    text: str
    golds: tuple[str, ...]
    correct: bool
    key: str = ""


def read_solutions(path: Path) -> list[Solution]:
    """StepMathBench and ProcessBench rows that have a reference answer (proofs have none)."""
    out = []
    for number, row in read_records(path):
        key = f"{path.name}:{row.get('uid') or row.get('id') or number}"
        if "final_answer_correct" in row and row.get("reference_answer"):
            out.append(
                Solution(
                    str(row.get("problem", "")),
                    "\n\n".join(map(str, row["steps"])),
                    (str(row["reference_answer"]),),
                    bool(row["final_answer_correct"]),
                    key,
                )
            )
        elif row.get("answers") and row.get("gold_step_score") and row.get("type") != "Proof":
            golds = row["answers"] if isinstance(row["answers"], list) else [row["answers"]]
            out.append(
                Solution(
                    str(row.get("question", "")),
                    str(row.get("model_output", "")),
                    tuple(map(str, golds)),
                    row["gold_step_score"][-1] == "1",
                    key,
                )
            )
        elif row.get("model_output_answer_correctness") and row.get("ground_truth_answer"):
            out.append(
                Solution(
                    str(row.get("question", "")),
                    str(row.get("model_output", "")),
                    (str(row["ground_truth_answer"]),),
                    row["model_output_answer_correctness"] == "correct",
                    key,
                )
            )
    return out


def solution_verdicts(
    path: Path, timeout: float, left_out: frozenset[str] = frozenset()
) -> list[tuple[Solution, AnswerCheck]]:
    """Each solution with a reference and the answer check of it, given its problem."""
    return [
        (
            item,
            check_answer(
                item.text,
                list(item.golds),
                timeout=timeout,
                problem=item.problem,
                left_out=left_out,
            ),
        )
        for item in read_solutions(path)
    ]


def saved_verdict(item: Solution, check: AnswerCheck) -> dict[str, object]:
    """One solution's verdict as `--save` writes it."""
    return {
        "key": item.key,
        "half": problem_half(item.problem),
        "extracted": check.extracted,
        "correct": check.correct,
        "reading": check.reading,
        "human": item.correct,
    }


def verdict_changes(
    previous: dict[str, dict[str, object]], current: list[dict[str, object]]
) -> list[str]:
    """A line for each verdict (equal / not equal / undecided) or answer found that differs from
    the saved run `previous` (keyed by solution), saying which run agrees with the human one."""
    lines = []
    for new in current:
        old = previous.get(str(new["key"]))
        if old is None or (old["correct"], old["extracted"]) == (new["correct"], new["extracted"]):
            continue
        agrees = [
            name
            for name, run in (("before", old), ("after", new))
            if bool(run["correct"]) == new["human"]
        ]
        lines.append(
            f"  {new['key']} ({new['half']}, human {new['human']}): "
            f"{old['correct']} {str(old['extracted'])[:60]!r} -> "
            f"{new['correct']} {str(new['extracted'])[:60]!r} ({new['reading']}); "
            f"agrees: {' and '.join(agrees) or 'neither'}"
        )
    return lines


def solutions_report(
    paths: list[Path], timeout: float, save: Path | None = None, changes_from: Path | None = None
) -> int:
    """Print how often `check_answer` agrees with the human verdict, by half, by anchoring and
    by route, and the verdicts the rounding and the new readings changed; with `save`, write
    every verdict, and with `changes_from`, list those that differ from a saved run."""
    older = [(n, r) for n, r in READINGS if n not in NEW_READINGS]
    previous = (
        {}
        if changes_from is None
        else {str(row["key"]): row for _, row in read_records(changes_from)}
    )
    saved: list[dict[str, object]] = []
    for path in paths:
        agree: Counter[str] = Counter()
        total: Counter[str] = Counter()
        changed: Counter[tuple[str, str]] = Counter()
        changed_agree: Counter[tuple[str, str]] = Counter()
        mine: list[dict[str, object]] = []
        for item, check in solution_verdicts(path, timeout):
            mine.append(saved_verdict(item, check))
            ok = bool(check.correct) == item.correct
            half = problem_half(item.problem)
            keys = [half, "stated" if check.anchored else "guessed"]
            if check.route is not None:
                keys.append(f"route:{half}:{check.route}")
            for key in keys:
                total[key] += 1
                agree[key] += ok
            rounded = check.reading in ("rounded_computation", "stated_precision")
            if rounded or check.reading in NEW_READINGS:
                before = check_answer(
                    item.text,
                    list(item.golds),
                    timeout=timeout,
                    problem=item.problem,
                    rounding=not rounded,
                    readings=READINGS if rounded else older,
                )
                name = "rounding reading" if rounded else "new readings"
                if bool(before.correct) != bool(check.correct):
                    changed[name, half] += 1
                    changed_agree[name, half] += ok
        n, n_agree = total["fit"] + total["check"], agree["fit"] + agree["check"]
        print(f"{path.name}: answer verdict agrees with the human one on {_share(n_agree, n)}")
        for key in ("fit", "check", "stated", "guessed"):
            print(f"  {key:<10} {_share(agree[key], total[key])}")
        print(f"  {'route':<24} {'fit':>16} {'check':>16}")
        for route in ROUTES:
            cells = [
                _share(agree[f"route:{h}:{route}"], total[f"route:{h}:{route}"]) for h in HALVES
            ]
            print(f"  {route:<24} {cells[0]:>16} {cells[1]:>16}")
        for name in ("rounding reading", "new readings"):
            print(
                f"  verdicts the {name} changed, agreeing with the human one: "
                + ", ".join(
                    f"{h} {_share(changed_agree[name, h], changed[name, h]).strip()}"
                    for h in HALVES
                )
            )
        if changes_from is not None:
            lines = verdict_changes(previous, mine)
            print(f"  verdicts changed since {changes_from.name}: {len(lines)}")
            for line in lines:
                print(line)
        saved += mine
    if save is not None:
        save.write_text(
            "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in saved), encoding="utf-8"
        )
    return 0


def measure_routes(
    pairs: list[Pair], results: list[Equivalence], solutions: list[tuple[Solution, AnswerCheck]]
) -> Routes:
    """Each route's verdicts and agreements on the fit halves, pairs and solutions pooled."""
    cases: Counter[AnswerRoute] = Counter()
    agree: Counter[AnswerRoute] = Counter()
    for pair, result in zip(pairs, results, strict=True):
        if half_of(pair.gold) == "fit" and result.route is not None:
            cases[result.route] += 1
            agree[result.route] += bool(result.verdict) == pair.equal
    for item, check in solutions:
        if problem_half(item.problem) == "fit" and check.route is not None:
            cases[check.route] += 1
            agree[check.route] += bool(check.correct) == item.correct
    stats = {r: RouteStats(cases[r], agree[r]) for r in ROUTES if cases[r]}
    return Routes(stats, {"pairs": len(pairs), "solutions": len(solutions)})


def _share(agree: int, total: int) -> str:
    return f"{agree:>4}/{total:<4} {agree / total:6.1%}" if total else f"{0:>4}/{0:<4}    -  "


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    parser.add_argument("path", type=Path)
    parser.add_argument("more", type=Path, nargs="*", help=argparse.SUPPRESS)
    parser.add_argument(
        "--solutions",
        action="store_true",
        help="the files are graded solutions: measure the whole answer check",
    )
    add_timeout(parser)
    parser.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="with --solutions: write every solution's verdict as JSON lines",
    )
    parser.add_argument(
        "--changes-from",
        type=Path,
        metavar="FILE",
        help="with --solutions: list the verdicts that differ from a --save file",
    )
    parser.add_argument(
        "--show-disagreements",
        action="store_true",
        help="print every pair whose verdict differs from its label",
    )
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        metavar="READING",
        help="leave a reading out (repeatable)",
    )
    parser.add_argument(
        "--inexact",
        action="store_true",
        help="compare every pair within rounding (the rounding reading ungated)",
    )
    parser.add_argument(
        "--ablation",
        action="store_true",
        help="also measure both halves with each reading left out in turn",
    )
    parser.add_argument(
        "--write-routes",
        type=Path,
        metavar="FILE",
        help="write the routes' fit-half precision (scoring/answer/routes.json)",
    )
    parser.add_argument(
        "--with-solutions",
        type=Path,
        nargs="+",
        default=[],
        metavar="PATH",
        help="graded solutions whose fit half joins the pairs' in --write-routes",
    )


@register_study("answer_agreement", arguments=add_arguments)
def answer_agreement(args: argparse.Namespace) -> int:
    """Measure the pairs (or, with `--solutions`, the graded solutions) and print the agreement;
    2 on bad input."""
    if args.more and not args.solutions:
        raise StudyInputError(
            "one file of labelled pairs at a time (several only with --solutions)"
        )
    if args.with_solutions and not args.write_routes:
        raise StudyInputError("--with-solutions needs --write-routes")
    if (args.save or args.changes_from) and not args.solutions:
        raise StudyInputError("--save and --changes-from need --solutions")
    for path in (
        args.path,
        *args.more,
        *args.with_solutions,
        *([args.changes_from] if args.changes_from else []),
    ):
        require_file(path)
    try:
        return _measure(args)
    except DatasetError as exc:
        raise StudyInputError(str(exc)) from exc


def _measure(args: argparse.Namespace) -> int:
    """The measurement the checked options ask for."""
    if args.solutions:
        return solutions_report([args.path, *args.more], args.timeout, args.save, args.changes_from)
    pairs, skipped = read_pairs(args.path)
    unknown = set(args.without) - {name for name, _ in READINGS}
    if unknown:
        raise StudyInputError(f"no reading named {', '.join(sorted(unknown))}")
    readings = [(n, r) for n, r in READINGS if n not in args.without]
    verifier = CachedVerifier()
    verifier.outcome(["1/2"], "0.5")  # start the worker before timing
    start = time.perf_counter()
    results, times = judge(pairs, readings, args.timeout, verifier, args.inexact)
    elapsed = time.perf_counter() - start
    report(pairs, results, skipped, elapsed, args.show_disagreements)
    if args.write_routes:
        # The routes' precision is fitted on the fit half: measured, like the step model, without
        # the readings written from its own failures (`IN_SAMPLE_READINGS`).
        solved = [
            v
            for p in args.with_solutions
            for v in solution_verdicts(p, args.timeout, IN_SAMPLE_READINGS)
        ]
        fitted, _ = judge(pairs, readings, args.timeout, verifier, args.inexact, IN_SAMPLE_READINGS)
        routes = measure_routes(pairs, fitted, solved)
        args.write_routes.write_text(
            json.dumps(routes.to_json(), indent=2) + "\n", encoding="utf-8"
        )
        print(
            f"  routes written to {args.write_routes}: "
            + ", ".join(
                f"{r} {routes.precision(r):.3f} ({s.cases})" for r, s in routes.stats.items()
            )
        )
    in_process = [t for t, r in zip(times, results, strict=True) if r.reading != "math_verify"]
    worker = [t for t, r in zip(times, results, strict=True) if r.reading == "math_verify"]
    for name, group in (("decided in process", in_process), ("sent to math-verify", worker)):
        print(
            f"  latency, {name:<24} pairs {len(group):>4}  p50 {percentile(group, 0.5):7.2f} ms"
            f"  p95 {percentile(group, 0.95):7.2f} ms"
        )
    if args.ablation:
        print(f"  {'left out':<34} {'fit':>16} {'check':>16}")
        for name, _ in readings:
            fewer = [(n, r) for n, r in readings if n != name]
            split = halves(pairs, judge(pairs, fewer, args.timeout, verifier, args.inexact)[0])
            print(f"  {name:<34} {_share(*split['fit']):>16} {_share(*split['check']):>16}")
    return 0


def report(
    pairs: list[Pair],
    results: list[Equivalence],
    skipped: int,
    elapsed: float,
    show_disagreements: bool,
) -> None:
    """Print agreement by half and source, and each reading's precision by half."""
    agree: Counter[tuple[str, str]] = Counter()
    total: Counter[tuple[str, str]] = Counter()
    for pair, result in zip(pairs, results, strict=True):
        ok = bool(result.verdict) == pair.equal
        half = half_of(pair.gold)
        reading = result.reading + (" (restated)" if result.restated else "")
        keys = [(half, pair.source), (half, "all"), (half, f"reading:{reading}")]
        if result.route is not None:
            keys.append((half, f"route:{result.route}"))
        for key in keys:
            total[key] += 1
            agree[key] += ok
        if show_disagreements and not ok:
            print(
                f"  line {pair.line} label {pair.equal} got {result.verdict} "
                f"({reading}): {pair.gold!r} vs {pair.pred[:160]!r}"
            )
    n = len(pairs)
    n_agree = sum(agree[h, "all"] for h in HALVES)
    undecided = sum(r.verdict is None for r in results)
    print(
        f"agreement {n_agree}/{n} = {n_agree / max(n, 1):.1%} "
        f"(fit {_share(agree['fit', 'all'], total['fit', 'all'])}, "
        f"check {_share(agree['check', 'all'], total['check', 'all'])}); "
        f"skipped {skipped} rows (disabled in source or not a string pair); "
        f"undecided (None) {undecided}; wall time {elapsed:.1f} s"
    )
    for title, prefix in (
        ("source", ""),
        ("reading that decided", "reading:"),
        ("route", "route:"),
    ):
        print(f"  {title:<34} {'fit':>16} {'check':>16} {'total':>16}")
        names = sorted(
            {
                k
                for _, k in total
                if k != "all"
                and k.startswith(prefix)
                and (prefix or not k.startswith(("reading:", "route:")))
            }
        )
        for name in names:
            cells = [_share(agree[h, name], total[h, name]) for h in HALVES]
            both = _share(
                agree["fit", name] + agree["check", name], total["fit", name] + total["check", name]
            )
            print(f"  {name.removeprefix(prefix):<34} {cells[0]:>16} {cells[1]:>16} {both:>16}")


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.answer_agreement`: the study over this process's arguments."""
    return run_study("answer_agreement", argv)


if __name__ == "__main__":
    sys.exit(main())
