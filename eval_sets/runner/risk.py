"""Risk against coverage: how far the grades' own uncertainty (docs/architecture.md 4.11) holds.

For every set with gold 0-10 scores, per half of the dev split (`eval_sets/halves.py`: the
interval model is fitted on the fit half, so the check half is the honest reading) and per group
of grades that err alike (answer right, answer wrong, no verdict, proof, open-ended):
- the share of grades flagged `needs_review`, and Corr / MAE of the score against the human score
  on the grades NOT flagged (beside the same on all grades): what flagging buys;
- the coverage of the human score by `score_interval` and the interval's mean width;
and, where the steps carry gold labels on the graded segmentation, the step ECE of `p_wrong`
(10 equal bins) per half, language and group, with the reliability bins of each half/language.

Step labels come from the human labels of the same steps (StepMathBench graded on its human
segmentation, `--dataset stepmath_steps`) or, for the first-error sets (MR-MATH, ProcessBench),
from ReasonEval's protocol (steps before the first error right, the first error wrong, later
steps unlabelled; every step of a valid solution right).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from eval_sets.halves import HALVES, Half, half_of
from eval_sets.metrics.risk import RiskPoint, corr_mae, coverage_of, reliability, risk_coverage
from eval_sets.runner.figure_intervals import GradeRow, StepRow, figure_intervals
from eval_sets.runner.graded import Graded
from eval_sets.runner.tables import Cell, Table
from scoring.schema import GradeReport

Group = Literal["answer right", "answer wrong", "no verdict", "proof", "open-ended"]
GROUPS: tuple[Group, ...] = ("answer right", "answer wrong", "no verdict", "proof", "open-ended")
ECE_BINS = 10


def group_of(report: GradeReport) -> Group:
    """Grades that err alike: a calculation by its answer verdict, a proof or open-ended solution
    by its type (its score rests on the steps whatever the answer). A calculation without a
    verdict (no reference, or an answer that could not be read) is a group of its own: on a set
    graded without references (ProcessBench) it is every grade, and is no wrong answer."""
    if report.problem_type == "proof":
        return "proof"
    if report.problem_type == "open_ended":
        return "open-ended"
    if report.answer.correct is None:
        return "no verdict"
    return "answer right" if report.answer.correct else "answer wrong"


def half_of_item(g: Graded) -> Half:
    """The item's half of the dev split, by its problem; `fit` for a row never read as a request."""
    return half_of(g.result.request.problem) if g.result.request is not None else "fit"


@dataclass(frozen=True)
class _Scored:
    """A graded item with a gold score: what the review table reads."""

    half: Half
    group: Group
    score: int
    human: int
    interval: tuple[int, int] | None
    flagged: bool


def _scored(graded: Sequence[Graded]) -> list[_Scored]:
    return [
        _Scored(
            half_of_item(g),
            group_of(g.report),
            g.report.score,
            g.result.gold.score,
            g.report.score_interval,
            g.report.needs_review,
        )
        for g in graded
        if g.result.gold.score is not None
    ]


def _mae(pairs: Sequence[tuple[float, float]]) -> float:
    """MAE, defined from one pair on (Corr needs two)."""
    return sum(abs(x - y) for x, y in pairs) / len(pairs) if pairs else math.nan


def _fmt(value: float, scale: float = 1.0) -> float | None:
    return None if math.isnan(value) else value * scale


def review_table(graded: Sequence[Graded]) -> Table | None:
    """Per half and group: items, flagged share, Corr/MAE not flagged and all, interval coverage
    and mean width. None without gold scores."""
    items = _scored(graded)
    if not items:
        return None
    rows: list[tuple[Cell, ...]] = []
    for half in HALVES:
        in_half = [s for s in items if s.half == half]
        groups: list[tuple[str, Callable[[_Scored], bool]]] = [
            *((name, lambda s, n=name: s.group == n) for name in GROUPS),
            ("all", lambda s: True),
        ]
        for name, test in groups:
            chosen = [s for s in in_half if test(s)]
            if not chosen:
                continue
            kept = [(float(s.score), float(s.human)) for s in chosen if not s.flagged]
            every = [(float(s.score), float(s.human)) for s in chosen]
            corr, corr_all = corr_mae(kept)[0], corr_mae(every)[0]
            mae, mae_all = _mae(kept), _mae(every)
            with_interval = [s for s in chosen if s.interval is not None]
            cover, width = coverage_of(
                [s.interval for s in with_interval if s.interval], [s.human for s in with_interval]
            )
            rows.append(
                (
                    f"{half}: {name}",
                    len(chosen),
                    sum(s.flagged for s in chosen) / len(chosen),
                    _fmt(corr),
                    _fmt(mae),
                    _fmt(corr_all),
                    _fmt(mae_all),
                    _fmt(cover),
                    _fmt(width),
                )
            )
    missing = sum(s.interval is None for s in items)
    note = (
        "flagged = share of grades with needs_review; Corr (x100) and MAE of score against the "
        "human score on the grades not flagged, and on all; coverage = share of human scores "
        "inside score_interval (central 80%), width = mean hi - lo. The interval model is "
        "fitted on the fit half: the check half is the held-out reading."
    )
    if missing:
        note += f" {missing} grade(s) carry no interval and are left out of coverage and width."
    return Table(
        "review",
        "Risk against coverage: review flags and score intervals, per half and group",
        (
            "half: group",
            "items",
            "flagged",
            "Corr unflagged",
            "MAE unflagged",
            "Corr all",
            "MAE all",
            "coverage",
            "width",
        ),
        tuple(rows),
        note=note,
    )


def _labelled_steps(g: Graded) -> list[tuple[float, bool]]:
    """(p_wrong, human says wrong) for the steps with a gold label on the graded segmentation."""
    gold, steps = g.result.gold, g.report.steps
    given = g.result.request.solution_steps if g.result.request is not None else None
    if given is None or len(given) != len(steps):  # labels belong to the given steps only
        return []
    if gold.step_labels:
        if len(gold.step_labels) != len(steps):
            return []
        return [
            (s.p_wrong, label == "incorrect")
            for s, label in zip(steps, gold.step_labels, strict=True)
            if s.p_wrong is not None
        ]
    if gold.process_correct is None:
        return []
    last = len(steps) if gold.process_correct or gold.first_error is None else gold.first_error
    return [
        (s.p_wrong, s.index == gold.first_error and not gold.process_correct)
        for s in steps[:last]
        if s.p_wrong is not None
    ]


def step_ece_table(graded: Sequence[Graded], bins: int = ECE_BINS) -> Table | None:
    """Step ECE of p_wrong per half, language and group, then the reliability bins of each half
    and language. None when no step has a gold label on the graded segmentation."""
    pairs: dict[tuple[Half, str, str], list[tuple[float, bool]]] = defaultdict(list)
    for g in graded:
        steps = _labelled_steps(g)
        if not steps:
            continue
        key = (half_of_item(g), g.report.language)
        pairs[(*key, group_of(g.report))] += steps
        pairs[(*key, "all")] += steps
    if not pairs:
        return None
    rows: list[tuple[Cell, ...]] = []
    languages = sorted({lang for _, lang, _ in pairs})
    for half in HALVES:
        for lang in languages:
            for name in (*GROUPS, "all"):
                chosen = pairs.get((half, lang, name))
                if not chosen:
                    continue
                ece, table = reliability(chosen, bins)
                rows.append(
                    (
                        f"{half} {lang}: {name}",
                        "all",
                        len(chosen),
                        sum(p for p, _ in chosen) / len(chosen),
                        sum(w for _, w in chosen) / len(chosen),
                        ece,
                    )
                )
                if name == "all":
                    rows += [
                        (f"{half} {lang}: bin {label}", label, n, mean_p, rate, None)
                        for label, n, mean_p, rate in table
                    ]
    return Table(
        "step_ece",
        f"Step P(wrong) against gold step labels: ECE ({bins} equal bins) per "
        "half, language and group, and the reliability bins",
        ("half language: group", "bin", "steps", "mean P(wrong)", "wrong rate", "ECE"),
        tuple(rows),
        note="Gold step labels: the human labels of the same steps (StepMathBench on its "
        'human segmentation; "incorrect" is wrong, as in the interval fit), or the '
        "first-error protocol (steps before the first error right, it wrong, later "
        "steps left out). Only solutions graded on the given steps count.",
    )


def _problem(g: Graded) -> str:
    """The cluster a grade's figures resample by: its problem (its id for an unread row)."""
    return g.result.request.problem if g.result.request is not None else g.result.id


def figure_interval_table(graded: Sequence[Graded]) -> Table | None:
    """The review table's figures over all grades, its coverage per group and the step ECE per
    language, each with its 90% interval over the half's problems (`figure_intervals`)."""
    grades = [
        GradeRow(
            half_of_item(g),
            _problem(g),
            group_of(g.report),
            g.report.score,
            g.result.gold.score,
            g.report.score_interval,
            g.report.needs_review,
            None if g.result.gold.score_01 is None else g.result.gold.score_01 == 0,
        )
        for g in graded
        if g.result.gold.score is not None
    ]
    steps = [
        StepRow(half_of_item(g), g.report.language, _problem(g), p, wrong)
        for g in graded
        for p, wrong in _labelled_steps(g)
    ]
    return figure_intervals(grades, steps)


@dataclass(frozen=True)
class RiskCurve:
    """One half's risk-coverage curve and its needs_review operating point (coverage, MAE)."""

    half: Half
    points: tuple[RiskPoint, ...]
    operating: tuple[float, float] | None


def risk_curves(graded: Sequence[Graded]) -> list[RiskCurve]:
    """Per half with gold scores and intervals: MAE of the grades kept narrowest interval first,
    and where keeping the grades not flagged lands."""
    items = [s for s in _scored(graded) if s.interval is not None]
    curves = []
    for half in HALVES:
        chosen = [s for s in items if s.half == half]
        if not chosen:
            continue
        widths = [s.interval[1] - s.interval[0] for s in chosen if s.interval]
        errors = [float(abs(s.score - s.human)) for s in chosen]
        kept = [e for s, e in zip(chosen, errors, strict=True) if not s.flagged]
        operating = (len(kept) / len(chosen), sum(kept) / len(kept)) if kept else None
        curves.append(RiskCurve(half, tuple(risk_coverage(widths, errors)), operating))
    return curves
