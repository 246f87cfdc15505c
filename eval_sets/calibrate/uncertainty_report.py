"""What the score-interval fit reports on both halves of StepMathBench dev: interval coverage
and width per group, the share flagged for review, Corr and MAE on the grades not flagged, the
plainer baselines the issue names, the step ECE of P(wrong) with a reliability table, and the
fitted cells.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from eval_sets.calibrate.conformal import FLOOR, Graded
from eval_sets.halves import HALVES
from eval_sets.metrics.risk import corr_mae, coverage_of, reliability
from eval_sets.runner.figure_intervals import GradeRow, StepRow, figure_intervals
from eval_sets.runner.tables import Cell as TableCell
from eval_sets.runner.tables import Table
from scoring.schema import ReviewCode
from scoring.score import CELL_NAMES, FALLBACK, Review, UncertaintyModel, assess, cell_of

# The cells' names as the benchmark runner names its groups, so both print the same rows.
RUNNER_GROUP = {
    "right": "answer right",
    "wrong": "answer wrong",
    "no_verdict": "no verdict",
    "proof": "proof",
    "open_ended": "open-ended",
}


def _interval(review: Review) -> tuple[int, int]:
    """The interval of a grade assessed with an uncertainty model (which always gives one)."""
    if review.score_interval is None:
        raise ValueError("a grade assessed with an uncertainty model has an interval")
    return review.score_interval


def percentile_baseline(graded: Sequence[Graded]) -> Callable[[Graded], tuple[int, int]]:
    """The issue's plainest interval: per group (answer right, answer wrong, proof,
    open-ended), the 10th and 90th percentiles of the fit half's residuals around the score."""

    def group(g: Graded) -> str:
        return "wrong" if cell_of(g.features) == "no_verdict" else cell_of(g.features)

    bounds: dict[str, tuple[float, float]] = {}
    fit = [g for g in graded if g.half == "fit"]
    for name in {group(g) for g in fit}:
        res = sorted(g.human - g.features.score for g in fit if group(g) == name)
        bounds[name] = (_percentile(res, 0.1), _percentile(res, 0.9))
    pooled = sorted(g.human - g.features.score for g in fit)
    fallback = (_percentile(pooled, 0.1), _percentile(pooled, 0.9))

    def interval(g: Graded) -> tuple[int, int]:
        lo, hi = bounds.get(group(g), fallback)
        s = g.features.score
        return max(0, min(s, math.floor(s + lo))), min(10, max(s, math.ceil(s + hi)))

    return interval


def _percentile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def plain_rule(graded: Sequence[Graded], share: float = 0.5) -> list[bool]:
    """The issue's plain flag: proofs and open-ended solutions, then the longest wrong-answer
    solutions until `share` of the grades are flagged."""
    flags = [g.features.problem_type != "calculation" for g in graded]
    wrong = sorted(
        (i for i, g in enumerate(graded) if cell_of(g.features) in ("wrong", "no_verdict")),
        key=lambda i: -graded[i].features.steps,
    )
    for i in wrong:
        if sum(flags) >= share * len(graded):
            break
        flags[i] = True
    return flags


@dataclass
class _Rows:
    """A table being filled, row by row."""

    key: str
    title: str
    columns: tuple[str, ...]
    rows: list[tuple[TableCell, ...]] = field(default_factory=list)

    def add(self, *row: TableCell) -> None:
        self.rows.append(row)

    def table(self) -> Table:
        return Table(self.key, self.title, self.columns, tuple(self.rows))


GROUPS: dict[str, Callable[[Graded], bool]] = {
    "all": lambda g: True,
    "calculation": lambda g: g.features.problem_type == "calculation",
    "answer right": lambda g: cell_of(g.features) == "right",
    "answer wrong": lambda g: cell_of(g.features) in ("wrong", "no_verdict"),
    "proof": lambda g: g.features.problem_type == "proof",
    "open-ended": lambda g: g.features.problem_type == "open_ended",
}


def report_tables(
    graded: Sequence[Graded], model: UncertaintyModel, plain: UncertaintyModel, mode: str = ""
) -> list[Table]:
    """The figures of the issue's "Done when", on both halves (`mode`: a label of the grades,
    "LLM mode ..." for those graded against the label fake, in the tables' keys and titles)."""
    suffix = f" ({mode})" if mode else ""
    key = "_llm" if mode else ""
    baseline = percentile_baseline(graded)
    reviews = {g.uid: assess(g.features, model) for g in graded}
    plain_reviews = {g.uid: assess(g.features, plain) for g in graded}
    cover = _Rows(
        f"interval{key}",
        "80% interval: coverage of the human score / mean width (hi - lo), "
        f"per group, and the share flagged for review; fitted on the fit half{suffix}",
        (
            "half",
            "group",
            "items",
            "conformal",
            "width",
            "flagged",
            "unweighted",
            "width",
            "baseline p10-p90",
            "width",
        ),
    )
    for half in HALVES:
        for name, test in GROUPS.items():
            items = [g for g in graded if g.half == half and test(g)]
            if not items:
                continue
            humans = [g.human for g in items]
            row: list[TableCell] = [half, name, len(items)]
            for intervals in (
                [_interval(reviews[g.uid]) for g in items],
                [_interval(plain_reviews[g.uid]) for g in items],
                [baseline(g) for g in items],
            ):
                c, w = coverage_of(intervals, humans)
                row += [f"{100 * c:.1f}%", f"{w:.2f}"]
                if len(row) == 5:
                    flagged = sum(reviews[g.uid].needs_review for g in items) / len(items)
                    row.append(f"{100 * flagged:.1f}%")
            cover.add(*row)
    risk = _Rows(
        f"risk{key}",
        "Grades not flagged: share, Corr and MAE of score against human; "
        f"the issue's plain rule (proofs, then the longest wrong answers, to 50%) beside{suffix}",
        (
            "half",
            "items",
            "unflagged",
            "Corr",
            "MAE",
            "Corr all",
            "MAE all",
            "plain unflagged",
            "plain Corr",
            "plain MAE",
            "proofs flagged",
        ),
    )
    for half in HALVES:
        items = [g for g in graded if g.half == half]
        if not items:
            continue
        kept = [
            (float(g.features.score), float(g.human))
            for g in items
            if not reviews[g.uid].needs_review
        ]
        flags = plain_rule(items)
        plain_kept = [
            (float(g.features.score), float(g.human)) for g, f in zip(items, flags) if not f
        ]
        proofs = [
            g
            for g in items
            if g.features.problem_type == "proof" and not g.features.step_logic_checked
        ]
        corr, mae = corr_mae(kept)
        corr_all, mae_all = corr_mae([(float(g.features.score), float(g.human)) for g in items])
        pcorr, pmae = corr_mae(plain_kept)
        risk.add(
            half,
            len(items),
            f"{100 * len(kept) / len(items):.1f}%",
            f"{corr:.1f}",
            f"{mae:.2f}",
            f"{corr_all:.1f}",
            f"{mae_all:.2f}",
            f"{100 * len(plain_kept) / len(items):.1f}%",
            f"{pcorr:.1f}",
            f"{pmae:.2f}",
            f"{100 * sum(reviews[g.uid].needs_review for g in proofs) / max(1, len(proofs)):.0f}%",
        )
    reasons = _Rows(
        f"reasons{key}",
        f"Review reasons (a grade may have several){suffix}",
        ("half", "reason", "grades"),
    )
    for half in HALVES:
        counts: dict[ReviewCode, int] = {}
        for g in graded:
            if g.half == half:
                for code, _ in reviews[g.uid].reasons:
                    counts[code] = counts.get(code, 0) + 1
        for code, n in sorted(counts.items()):
            reasons.add(half, code, n)
    ece = _Rows(
        f"ece{key}",
        "Step P(wrong) against the human step labels (human segmentation): "
        f"ECE over 10 equal bins, per language and problem type, and the reliability table{suffix}",
        ("half", "language", "type", "bin", "steps", "mean P(wrong)", "wrong rate", "ECE"),
    )
    for half in HALVES:
        for language in sorted({g.language for g in graded}):
            for kind in ("all", "calculation", "proof", "open_ended"):
                pairs = [
                    (p, w)
                    for g in graded
                    if g.half == half
                    and g.language == language
                    and kind in ("all", g.features.problem_type)
                    for p, w in zip(g.p_wrong, g.wrong)
                    if p is not None and w is not None
                ]
                if not pairs:
                    continue
                value, rows = reliability(pairs)
                ece.add(half, language, kind, "all", len(pairs), "", "", f"{value:.3f}")
                for label, n, mean_p, rate in rows:
                    ece.add(half, language, kind, label, n, f"{mean_p:.3f}", f"{rate:.3f}", "")
    tables = [rows.table() for rows in (cover, risk, reasons, ece)]
    sure = figure_intervals(
        [
            GradeRow(
                g.half,
                g.problem,
                RUNNER_GROUP[cell_of(g.features)],
                g.features.score,
                g.human,
                _interval(reviews[g.uid]),
                reviews[g.uid].needs_review,
                g.failed,
            )
            for g in graded
        ],
        [
            StepRow(g.half, g.language, g.problem, p, w)
            for g in graded
            for p, w in zip(g.p_wrong, g.wrong)
            if p is not None and w is not None
        ],
        key=f"figure_intervals{key}",
        title_suffix=suffix,
    )
    return tables + ([sure] if sure else [])


def cell_tables(model: UncertaintyModel) -> list[Table]:
    """The fitted cells, offline and LLM mode: grades, centre, spread, quantiles and the nominal
    level of each, the cells that borrow and whose, `max_width` and the out-of-fold coverage."""
    tables = []
    for mode, cells in (("offline", model.cells), ("llm", model.llm_cells)):
        if not cells:
            continue
        fitted = [name for name in CELL_NAMES if name in cells]
        borrowed = {
            name: next(c for c in FALLBACK[name] if c in cells)
            for name in CELL_NAMES
            if name not in cells
        }
        oof = (
            model.meta.get("out_of_fold_coverage")
            if mode == "offline"
            else model.meta.get("llm", {}).get("out_of_fold_coverage")
        )
        tables.append(
            Table(
                f"uncertainty_cells{'' if mode == 'offline' else '_llm'}",
                f"Score-interval cells ({mode}): grades, centre, spread, quantiles and the nominal "
                f"level chosen for 80% pooled out-of-fold coverage, each cell at least {FLOOR:.0%} "
                "(fit half)",
                (
                    "cell",
                    "n",
                    "intercept",
                    "slope",
                    "spread0",
                    "spread1",
                    "q_lo",
                    "q_hi",
                    "nominal",
                ),
                tuple(
                    (k, c.n, c.intercept, c.slope, c.spread0, c.spread1, c.q_lo, c.q_hi, c.nominal)
                    for k in fitted
                    for c in [cells[k]]
                ),
                note=f"borrowing: {borrowed}; max_width {model.max_width}; out-of-fold coverage on "
                f"the fit half: {oof}",
            )
        )
    return tables
