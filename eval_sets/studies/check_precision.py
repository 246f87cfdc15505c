"""Precision of the step-level "this equation is false" finding against human step labels.

    stepgrade study check_precision --data ../shared/data [--show N]

A check that calls a correct step's arithmetic false does more harm than one that stays silent
(in LLM mode, symbolic overrides that fire wrongly move StepMathBench scores away from the
human score). This measures, per labelled set and per half, how many steps each finding kind
fires on and the share of those that humans label wrong (precision), and how many wrong steps it
catches (recall side).

Every set is split by problem into a *fit* half and a *check* half (a hash of the problem text,
so the five StepMathBench solutions of one problem stay together): readings are written by
looking at the fit half; a reading that helps fit and hurts check does not generalise.

Labels per set:
- StepMathBench: human segmentation `gold_step` with `gold_step_score` (`1` correct, `0` wrong,
  `1(0)` correct in isolation but built on an error: its arithmetic is right, so it counts as not
  wrong here);
- ProcessBench, MR-MATH invalid: steps before the first error are correct, the first error is
  wrong, later steps are unknown;
- ReasonEval perturbations: each original solution is correct throughout; in a perturbed copy only
  the perturbed step is labelled (wrong), since the other steps repeat the original's. Repeated
  steps (redundant, not wrong) are not labelled.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from eval_sets.loaders.perturbation import perturbed_step
from eval_sets.plugins import register_study
from eval_sets.study_cli import DEFAULT_DATA, StudyInputError, add_data, add_half, run_study
from scoring.parse import StepCheck, check_step, prose_relations
from scoring.schema import StepLabel
from scoring.score import parse_human_label

Half = Literal["fit", "check"]
FILES = {
    "stepmath": "stepmathbench_dev.jsonl",
    "processbench": "processbench_dev.jsonl",
    "mr_math_invalid": "mr_math_invalid_dev.jsonl",
    "perturbation": "perturbation_dev.jsonl",
}
CORRECT: StepLabel = "correct"  # typed once: a bare literal in a tuple widens to str
_NUMBERING = re.compile(r"^\s*\(\d+\)\s*")


@dataclass(frozen=True)
class StepRow:
    """One solution with a label per step (None: unknown); `subset` e.g. a perturbation type."""

    set: str
    half: Half
    problem: str
    steps: tuple[str, ...]
    labels: tuple[StepLabel | None, ...]
    subset: str = ""


def half_of(problem: str) -> Half:
    """Deterministic split by problem text: the same problem is always in the same half."""
    digest = hashlib.sha256(" ".join(problem.split()).encode("utf-8")).digest()
    return "fit" if digest[0] % 2 == 0 else "check"


def _read(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _text(value: object) -> str:
    return "\n".join(_text(v) for v in value) if isinstance(value, list) else str(value)


def _first_error_labels(n: int, first: int | None) -> tuple[StepLabel | None, ...]:
    """Steps before the 0-based first error correct, the error wrong, the rest unknown."""
    if first is None:
        return (CORRECT,) * n
    return tuple(CORRECT if i < first else "incorrect" if i == first else None for i in range(n))


def _stepmath(path: Path) -> Iterator[StepRow]:
    for row in _read(path):
        steps = tuple(_NUMBERING.sub("", s) for s in row.get("gold_step") or ())
        labels = tuple(parse_human_label(s) for s in row.get("gold_step_score") or ())
        if steps and len(steps) == len(labels):
            yield StepRow(
                "stepmath",
                half_of(row["question"]),
                row["question"],
                steps,
                labels,
                str(row.get("type", "")).lower(),
            )


def _processbench(path: Path) -> Iterator[StepRow]:
    for row in _read(path):
        steps = tuple(_text(s) for s in row["steps"])
        label = int(row["label"])
        yield StepRow(
            "processbench",
            half_of(row["problem"]),
            row["problem"],
            steps,
            _first_error_labels(len(steps), None if label < 0 else label),
            str(row.get("id", "")).split("-")[0],
        )


def _mr_math_invalid(path: Path) -> Iterator[StepRow]:
    for row in _read(path):
        steps = tuple(_text(s) for s in row["model_output_step_format"])
        raw = str(row["model_output_solution_first_error_step"]).strip()
        first = int(raw) - 1 if raw.isdigit() else None
        if str(row["model_output_solution_correctness"]).lower() != "correct" and first is None:
            continue
        yield StepRow(
            "mr_math_invalid",
            half_of(row["question"]),
            row["question"],
            steps,
            _first_error_labels(len(steps), first),
        )


def _perturbation(path: Path) -> Iterator[StepRow]:
    originals: set[str] = set()
    for row in _read(path):
        problem, rid = row["question"], str(row["rid"])
        half = half_of(problem)
        if rid not in originals:
            originals.add(rid)
            steps = tuple(_text(s) for s in row["reference_steps"])
            yield StepRow("perturbation", half, problem, steps, (CORRECT,) * len(steps), "original")
        kind = str(row["error_type"]).strip().lower()
        steps = tuple(_text(s) for s in row["hypothesis_steps"])
        at = perturbed_step(kind, row["tags"], len(steps))
        if kind == "repeat step" or at is None:
            continue
        labels: tuple[StepLabel | None, ...] = tuple(
            "incorrect" if i == at - 1 else None for i in range(len(steps))
        )
        yield StepRow("perturbation", half, problem, steps, labels, kind)


_READERS: dict[str, Callable[[Path], Iterator[StepRow]]] = {
    "stepmath": _stepmath,
    "processbench": _processbench,
    "mr_math_invalid": _mr_math_invalid,
    "perturbation": _perturbation,
}


def step_rows(data_dir: Path) -> Iterator[StepRow]:
    """Every labelled solution of the development sets found in `data_dir` (missing files skipped)."""
    for name, reader in _READERS.items():
        path = data_dir / FILES[name]
        if path.is_file():
            yield from reader(path)


# --- finding kinds ----------------------------------------------------------------------------


def _equation_false(check: StepCheck, step: str) -> bool:
    prose = {r.source for r in prose_relations(step)}
    return any(c.verdict == "false" and c.relation.source not in prose for c in check.relations)


def _prose_false(check: StepCheck, step: str) -> bool:
    prose = {r.source for r in prose_relations(step)}
    return any(c.verdict == "false" and c.relation.source in prose for c in check.relations)


# Kind -> does it fire on this step (given the step's check, computed once).
KINDS: dict[str, Callable[[StepCheck, str], bool]] = {
    "calculation": lambda check, step: check.verdict == "false",
    "calculation/equation": _equation_false,
    "calculation/prose": _prose_false,
}


@dataclass
class Tally:
    """Counts for one (set, half, kind): labelled steps, wrong ones, fired, fired on wrong."""

    steps: int = 0
    wrong: int = 0
    fired: int = 0
    fired_wrong: int = 0
    examples: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float | None:
        """Share of the firings that are on steps labelled wrong; None when it never fired."""
        return self.fired_wrong / self.fired if self.fired else None

    @property
    def recall(self) -> float | None:
        """Share of the wrong steps it fired on; None when there are none."""
        return self.fired_wrong / self.wrong if self.wrong else None


def count(rows: Iterable[StepRow], keep_examples: int = 0) -> dict[tuple[str, str, str], Tally]:
    """Tallies per (set, half, kind); false alarms (fired on a step not labelled wrong) kept
    as examples, up to `keep_examples` per key, to read what the checks misread."""
    tallies: dict[tuple[str, str, str], Tally] = {}
    for row in rows:
        for step, label in zip(row.steps, row.labels, strict=True):
            if label is None:
                continue
            check = check_step(step)
            wrong = label == "incorrect"
            for kind, fires in KINDS.items():
                keys = [(row.set, row.half, kind)]
                if row.set == "perturbation" and row.subset in (
                    "random number",
                    "random operation",
                ):
                    keys.append(("perturbation:" + row.subset, row.half, kind))
                for key in keys:
                    t = tallies.setdefault(key, Tally())
                    t.steps += 1
                    t.wrong += wrong
                    if fires(check, step):
                        t.fired += 1
                        t.fired_wrong += wrong
                        if not wrong and len(t.examples) < keep_examples:
                            t.examples.append(f"{check.evidence}  <<  {step[:300]!r}")
    return tallies


def _pct(value: float | None) -> str:
    return "   -" if value is None else f"{100 * value:5.1f}"


def table(tallies: dict[tuple[str, str, str], Tally]) -> str:
    """One table per finding kind: rows are set x half."""
    lines = []
    for kind in KINDS:
        lines.append(f"\n## {kind}")
        lines.append(
            f"{'set':<32} {'half':<6} {'steps':>6} {'wrong':>6} {'fired':>6} "
            f"{'fired&wrong':>11} {'precision':>9} {'recall':>7}"
        )
        for (name, half, k), t in sorted(tallies.items()):
            if k != kind:
                continue
            lines.append(
                f"{name:<32} {half:<6} {t.steps:>6} {t.wrong:>6} {t.fired:>6} "
                f"{t.fired_wrong:>11} {_pct(t.precision):>9} {_pct(t.recall):>7}"
            )
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    add_data(parser, "folder with the development sets", default=DEFAULT_DATA)
    add_half(parser, "both")
    parser.add_argument(
        "--show", type=int, default=0, help="print up to N false alarms per set (fit half only)"
    )


@register_study("check_precision", arguments=add_arguments)
def check_precision(args: argparse.Namespace) -> int:
    """Print the precision table (and with `--show`, false alarms); 2 when no development set is
    found."""
    if not any((args.data / f).is_file() for f in FILES.values()):
        raise StudyInputError(
            f"no development set found in {args.data} (expected one of {', '.join(FILES.values())})"
        )
    rows = (r for r in step_rows(args.data) if args.half in ("both", r.half))
    tallies = count(rows, keep_examples=args.show)
    print(table(tallies))
    if args.show:
        for (name, half, kind), t in sorted(tallies.items()):
            if kind == "calculation" and half == "fit" and t.examples:
                print(f"\n### false alarms, {name} (fit)")
                print("\n".join(t.examples))
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.check_precision`: the study over this process's arguments."""
    return run_study("check_precision", argv)


if __name__ == "__main__":
    sys.exit(main())
