"""From stored results to the papers' tables; which tables appear depends on the gold present.

Pure: a list of ItemResult in, a list of Table out. Conventions (documented in the tables):
- predicted first error = the report's most likely first error (1-based), else None;
- predicted valid (ReasonEval) = solution validity >= threshold; step valid = step validity >= it;
- step-level gold (MR-MATH, perturbation): steps before the first error are valid, the first
  error is invalid, later steps are unlabelled (ReasonEval's protocol); a valid solution's steps
  are all valid. Step-level metrics need the report's steps to be the given steps (no resegmenting).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from eval_sets.metrics import (
    QUADRANTS,
    auc,
    avg_score,
    divergence_histogram,
    false_positive_rate,
    macro_f1,
    mean,
    mse,
    overlap_ratio,
    pearson,
    processbench_score,
    quadrant_shares,
    spearman,
    std,
    threshold,
)
from eval_sets.runner.graded import Graded, with_reports
from eval_sets.runner.risk import figure_interval_table, review_table, step_ece_table
from eval_sets.runner.score_sources import score_sources_table
from eval_sets.runner.store import ItemResult
from eval_sets.runner.tables import Cell, Table
from scoring.schema import GradeReport, StepReport

BAD = {"incorrect", "meaningless"}


def predicted_first_error(report: GradeReport) -> int | None:
    """The report's most likely first error (1-based), else None; a report without that best
    guess (the difficulty module rated the problem simple) by its first step labelled
    incorrect or meaningless."""
    if report.likely_first_error is not None:
        return report.likely_first_error.step
    return next((s.index for s in report.steps if s.label in BAD), None)


def _groups(graded: Sequence[Graded]) -> list[tuple[str, list[Graded]]]:
    """Per subset (when there are several) and "overall"."""
    by: dict[str, list[Graded]] = defaultdict(list)
    for g in graded:
        by[g.result.gold.subset or "all"].append(g)
    groups = sorted(by.items()) if len(by) > 1 else []
    return [*groups, ("overall", list(graded))]


def overview(results: Sequence[ItemResult], wall_s: float | None) -> Table:
    """The whole run: items graded, failed and timed out, share of correct answers, mean scores,
    timings."""
    graded = with_reports(results)
    timeouts = sum(1 for r in results if r.error and r.error.startswith("timeout"))
    answers = [g.report.answer.correct for g in graded if g.report.answer.correct is not None]
    times = [r.elapsed_ms for r in results if r.request is not None]  # unread rows took no time
    rows: list[tuple[Cell, ...]] = [
        ("items", len(results)),
        ("graded", len(graded)),
        ("failed", len(results) - len(graded) - timeouts),
        ("timed out", timeouts),
        ("answer correct (share)", mean([float(a) for a in answers])),
        ("mean score (0-10)", avg_score([g.report.score for g in graded])),
        ("mean holistic", mean([g.report.holistic for g in graded])),
        ("mean item time (ms)", mean(times)),
        ("wall time (s)", None if wall_s is None else round(wall_s, 1)),
    ]
    return Table("overview", "Run overview", ("quantity", "value"), tuple(rows))


def stepmath_table(graded: Sequence[Graded]) -> Table | None:
    """StepMathAgent Table 3: AvgS, Corr, MSE, OR per problem type and overall."""
    items = [(g, s) for g in graded if (s := g.result.gold.score) is not None]
    if not items:
        return None
    by: dict[str, list[tuple[Graded, int]]] = defaultdict(list)
    for g, s in items:
        asked = g.result.request.problem_type if g.result.request is not None else None
        by[asked or g.report.problem_type].append((g, s))
    rows = []
    for name, group in [*sorted(by.items()), ("overall", items)]:
        pred = [g.report.score for g, _ in group]
        gold = [s for _, s in group]
        pred01 = [g.report.score_binary for g, _ in group]
        gold01 = [s01 for g, _ in group if (s01 := g.result.gold.score_01) is not None]
        rows.append(
            (
                name,
                len(group),
                avg_score(pred),
                avg_score(gold),
                pearson(pred, gold),
                mse(pred, gold),
                overlap_ratio(pred, gold),
                overlap_ratio(pred01, gold01) if len(gold01) == len(pred01) else None,
            )
        )
    return Table(
        "stepmath",
        "StepMathAgent metrics (0-10 scores against human gold)",
        ("type", "n", "AvgS", "AvgS gold", "Corr", "MSE", "OR", "OR binary"),
        tuple(rows),
        note="OR = share of items whose predicted score equals the gold score exactly; "
        "OR binary = the same on the 0/1 scores.",
    )


def _step_pairs(g: Graded) -> list[tuple[int, float]]:
    """(gold step valid 0/1, predicted validity) for the labelled steps of one solution."""
    gold, steps = g.result.gold, g.report.steps
    given = g.result.request.solution_steps if g.result.request is not None else None
    if gold.process_correct is None or given is None or len(steps) != len(given):
        return []
    if gold.first_error is None:
        labelled = steps
        return [(1, s.validity) for s in labelled]
    return [(int(s.index < gold.first_error), s.validity) for s in steps[: gold.first_error]]


def step_agreement_table(graded: Sequence[Graded]) -> Table | None:
    """Step labels against human ones, where both segmentations have the same number of steps."""
    items = [
        g
        for g in graded
        if g.result.gold.step_labels and len(g.result.gold.step_labels) == len(g.report.steps)
    ]
    if not items:
        return None
    rows = []
    for name, group in _groups(items):
        gold = [_POINT[lab] for g in group for lab in g.result.gold.step_labels or ()]
        ours = [_right(s) for g in group for s in g.report.steps]
        rows.append(
            (
                name,
                len(group),
                len(gold),
                mean([float(a == b) for a, b in zip(gold, ours, strict=True)]),
                macro_f1([bool(x) for x in gold], [bool(x) for x in ours]),
            )
        )
    matched = sum(1 for g in graded if g.result.gold.step_labels)
    return Table(
        "step_agreement",
        "Step labels against the human labels (same segmentation length)",
        ("subset", "items", "steps", "accuracy", "macro F1"),
        tuple(rows),
        note=f"{len(items)} of {matched} labelled items have as many steps as the human "
        "segmentation; a step scores 1 when correct or redundant, 0 otherwise; an "
        "unchecked step 1 when more likely right than wrong (P(wrong) < 0.5).",
    )


def validity_table(graded: Sequence[Graded], cut: float) -> Table | None:
    """ReasonEval's MR-MATH protocol (solution and step level) and ProcessBench's F1."""
    items = [g for g in graded if g.result.gold.process_correct is not None]
    if not items:
        return None
    rows: list[tuple[Cell, ...]] = []
    groups = _groups(items)
    for name, group in groups:
        labels = [int(bool(g.result.gold.process_correct)) for g in group]
        scores = [g.report.reasoneval.validity for g in group]
        pairs = [p for g in group for p in _step_pairs(g)]
        step_labels = [y for y, _ in pairs]
        step_scores = [s for _, s in pairs]
        pb = processbench_score(
            [predicted_first_error(g.report) for g in group],
            [
                g.result.gold.first_error if not g.result.gold.process_correct else None
                for g in group
            ],
        )
        rows.append(
            (
                name,
                len(group),
                macro_f1(labels, threshold(scores, cut)),
                auc(labels, scores),
                len(pairs),
                macro_f1(step_labels, threshold(step_scores, cut)) if pairs else None,
                auc(step_labels, step_scores) if pairs else None,
                pb.error_accuracy,
                pb.correct_accuracy,
                pb.f1,
            )
        )
    if len(groups) > 2:  # several subsets, then "overall": ProcessBench reports their mean F1
        rows.append(_subset_mean(rows[:-1], len(items)))
    return Table(
        "validity",
        f"Process validity (ReasonEval MR-MATH protocol, threshold {cut:g}; ProcessBench)",
        (
            "subset",
            "n",
            "sol. F1",
            "sol. AUC",
            "steps",
            "step F1",
            "step AUC",
            "err. acc",
            "corr. acc",
            "PB F1",
        ),
        tuple(rows),
        note="F1 is macro F1 over valid/invalid; AUC uses the validity score. ProcessBench: err. acc "
        "= predicted earliest error equals gold on erroneous solutions, corr. acc = no error "
        'predicted on correct ones, PB F1 their harmonic mean; "subset mean" averages '
        "the subsets' err. acc, corr. acc and PB F1 (ProcessBench's headline figure), "
        'where "overall" pools the items.',
    )


def _subset_mean(rows: Sequence[tuple[Cell, ...]], n: int) -> tuple[Cell, ...]:
    """The mean over the subset rows of the ProcessBench columns (the last three)."""

    def average(column: int) -> float | None:
        values = [r[column] for r in rows]
        if any(not isinstance(v, float | int) for v in values):
            return None
        return mean([float(v) for v in values])  # type: ignore[arg-type]

    return (
        "subset mean",
        n,
        *([None] * (len(rows[0]) - 2 - 3)),
        average(-3),
        average(-2),
        average(-1),
    )


def redundancy_table(graded: Sequence[Graded], cut: float) -> Table | None:
    """ReasonEval's redundancy: macro F1 and AUC per solution and per step; None without
    redundancy gold."""
    items = [g for g in graded if g.result.gold.step_redundant is not None]
    pairs: list[tuple[int, float]] = []
    sol_labels, sol_scores = [], []
    for g in items:
        gold = g.result.gold.step_redundant or ()
        if len(g.report.steps) != len(gold):
            continue
        pairs += [(int(r), s.redundancy) for r, s in zip(gold, g.report.steps, strict=True)]
        sol_labels.append(int(any(gold)))
        sol_scores.append(g.report.reasoneval.redundancy)
    if not items:
        return None
    ys, ss = [y for y, _ in pairs], [s for _, s in pairs]
    row = (
        "overall",
        len(sol_labels),
        macro_f1(sol_labels, threshold(sol_scores, cut)),
        auc(sol_labels, sol_scores),
        len(pairs),
        macro_f1(ys, threshold(ss, cut)),
        auc(ys, ss),
        sum(ys),
    )
    return Table(
        "redundancy",
        f"Redundancy (ReasonEval, threshold {cut:g})",
        ("subset", "n", "sol. F1", "sol. AUC", "steps", "step F1", "step AUC", "redundant steps"),
        (row,),
        note="AUC is undefined (–) when the gold has only one class.",
    )


_POINT = {"correct": 1, "redundant": 1, "incorrect": 0, "meaningless": 0, "not_math": 0}


def _right(step: StepReport) -> int:
    """1 when the step's label gives it its point; an unchecked step, when more likely right."""
    if step.label == "unchecked":
        return int(step.p_wrong is None or step.p_wrong < 0.5)
    return _POINT[step.label]


def _located(g: Graded) -> bool:
    """The perturbed step is found: the first error there, or (repeat step) labelled redundant."""
    gold = g.result.gold
    if gold.first_error is not None:
        return predicted_first_error(g.report) == gold.first_error
    step = gold.perturbed_step
    return (
        step is not None
        and step <= len(g.report.steps)
        and (g.report.steps[step - 1].label == "redundant")
    )


def _weakest_is_perturbed(g: Graded) -> bool:
    """Localisation by score: the lowest-validity step is the perturbed step."""
    steps, step = g.report.steps, g.result.gold.perturbed_step
    if not steps or step is None:
        return False
    return min(steps, key=lambda s: s.validity).index == step


def perturbation_table(graded: Sequence[Graded]) -> Table | None:
    """Perturbed steps flagged and located, and validity AUC against the originals, per subset;
    None without perturbation gold."""
    items = [g for g in graded if g.result.gold.is_perturbed is not None]
    if not items:
        return None
    originals = [g.report.reasoneval.validity for g in items if not g.result.gold.is_perturbed]
    rows = []
    for name, group in _groups(items):
        flagged = [
            predicted_first_error(g.report) is not None
            or any(s.label == "redundant" for s in g.report.steps)
            for g in group
        ]
        perturbed = [g for g in group if g.result.gold.is_perturbed]
        located = [_located(g) for g in perturbed]
        validity = [g.report.reasoneval.validity for g in perturbed]
        # ReasonEval's protocol: perturbed solutions against the originals, by solution validity
        labels = [True] * len(validity) + [False] * len(originals)
        risk = [1.0 - v for v in (*validity, *originals)]
        rows.append(
            (
                name,
                len(group),
                mean([float(f) for f in flagged]),
                mean([float(x) for x in located]) if located else None,
                auc(labels, risk) if validity and originals else None,
                mean([float(_weakest_is_perturbed(g)) for g in perturbed]) if perturbed else None,
                avg_score([g.report.score for g in group]),
                mean([g.report.hcrs.score for g in group]),
            )
        )
    return Table(
        "perturbation",
        "Perturbation detection (ReasonEval perturbation set)",
        (
            "subset",
            "n",
            "flagged",
            "located",
            "validity AUC",
            "weakest step",
            "mean score",
            "mean HCRS",
        ),
        tuple(rows),
        note="flagged = some step labelled incorrect, meaningless or redundant (for the "
        "originals this is a false alarm); located = the predicted first error (or a "
        "redundant label, for repeated steps) is the perturbed step; validity AUC = "
        "solution validity (min over steps) ranks the perturbed solutions below the "
        "originals; weakest step = the lowest-validity step is the perturbed one.",
    )


def false_positive_table(graded: Sequence[Graded]) -> Table | None:
    """ReasonEval Table 4: correct answers reached through invalid steps."""
    items = [
        g
        for g in graded
        if g.result.gold.process_correct is not None and g.report.answer.correct is not None
    ]
    if not items:
        return None
    answer = [bool(g.report.answer.correct) for g in items]
    gold_valid = [bool(g.result.gold.process_correct) for g in items]
    passed = [
        a and predicted_first_error(g.report) is None for a, g in zip(answer, items, strict=True)
    ]
    rows = (
        ("answer only", sum(answer), false_positive_rate(answer, gold_valid)),
        ("answer and no flagged step", sum(passed), false_positive_rate(passed, gold_valid)),
    )
    return Table(
        "false_positives",
        "False positives: passed solutions whose steps are invalid (ReasonEval Table 4)",
        ("judge", "passed", "FPR"),
        rows,
    )


def realign_table(graded: Sequence[Graded]) -> Table | None:
    """ReAlign Tables 1-3: accuracy, alignment mean/std, alignment vs correctness, quadrants."""
    items = [g for g in graded if g.report.alignment is not None]
    if not items:
        return None
    rows = []
    for name, group in _groups(items):
        align = [g.report.alignment.score for g in group if g.report.alignment]
        correct = [float(bool(g.report.answer.correct)) for g in group]
        shares = quadrant_shares([g.report.quadrant for g in group])
        rows.append(
            (
                name,
                len(group),
                mean(correct),
                mean(align),
                std(align),
                pearson(align, correct),
                spearman(align, correct),
                *(shares[q] for q in QUADRANTS),
            )
        )
    return Table(
        "realign",
        "Reference alignment (ReAlign)",
        ("subset", "n", "accuracy", "align mean", "align std", "Pearson", "Spearman", *QUADRANTS),
        tuple(rows),
        note="Pearson and Spearman: alignment score against answer correctness (0/1).",
    )


def divergence_table(graded: Sequence[Graded]) -> Table | None:
    """ReAlign: where solutions first leave the reference (1-based step; "none" = never)."""
    steps = [g.report.alignment.divergence_step for g in graded if g.report.alignment]
    if not steps:
        return None
    hist = divergence_histogram(steps)
    rows = tuple((step, count, count / len(steps)) for step, count in hist.items())
    return Table(
        "divergence",
        "Divergence step distribution (ReAlign)",
        ("divergence step", "solutions", "share"),
        rows,
    )


FAILURES_SHOWN = 50


def failures_table(results: Sequence[ItemResult]) -> Table | None:
    """Which items failed and why (the first few; results.jsonl has every one)."""
    failed = [r for r in results if r.error is not None]
    if not failed:
        return None
    rows = tuple((r.id, r.error) for r in failed[:FAILURES_SHOWN])
    more = len(failed) - len(rows)
    return Table(
        "failures",
        "Items that could not be graded",
        ("item", "reason"),
        rows,
        note=f"{more} more in results.jsonl (lines with an error)." if more else "",
    )


# The report's `lucky_guess` flag, a column of its own beside the quadrant of the same name.
LUCKY_GUESS_FLAG = "lucky_guess flag (HCRS)"


def quadrant_table(graded: Sequence[Graded]) -> Table:
    """Share of each reasoning quadrant and of lucky guesses, per subset and overall."""
    rows = []
    for name, group in _groups(graded):
        shares = quadrant_shares([g.report.quadrant for g in group])
        rows.append(
            (
                name,
                len(group),
                *(shares[q] for q in QUADRANTS),
                mean([float(g.report.lucky_guess) for g in group]),
            )
        )
    return Table(
        "quadrants",
        "Quadrant shares",
        ("subset", "n", *QUADRANTS, LUCKY_GUESS_FLAG),
        tuple(rows),
        note=f"{LUCKY_GUESS_FLAG}: the share of reports with `lucky_guess` "
        "true (HCRS <= 3 with the answer right); the lucky_guess column is the quadrant.",
    )


def summarise(
    results: Sequence[ItemResult], *, cut: float = 0.5, wall_s: float | None = None
) -> list[Table]:
    """Every table the results' gold supports: the overview first, the failures (if any) last."""
    graded = with_reports(results)
    builders: list[Callable[[], Table | None]] = [
        lambda: stepmath_table(graded),
        lambda: score_sources_table(graded),
        lambda: review_table(graded),
        lambda: step_ece_table(graded),
        lambda: figure_interval_table(graded),
        lambda: step_agreement_table(graded),
        lambda: validity_table(graded, cut),
        lambda: redundancy_table(graded, cut),
        lambda: perturbation_table(graded),
        lambda: false_positive_table(graded),
        lambda: realign_table(graded),
        lambda: divergence_table(graded),
        lambda: quadrant_table(graded) if graded else None,
    ]
    tables = [overview(results, wall_s)]
    tables += [t for t in (b() for b in builders) if t is not None]
    failures = failures_table(results)
    return tables + ([failures] if failures else [])
