"""What the calibration measured, per half: the kinds' table and the grades' agreement."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from eval_sets.calibrate.evidence import Observed
from eval_sets.calibrate.fit import Grade, first_error_f1, grade_all, kind_stats, score_error
from eval_sets.metrics.bootstrap import cluster_interval
from eval_sets.metrics.classification import auc
from eval_sets.metrics.mix import HELD_OUT_MIX, mix_weights
from eval_sets.metrics.risk import reliability, weighted_ece
from eval_sets.metrics.scores import overlap_ratio, pearson
from eval_sets.runner.tables import Cell, Table
from scoring.judge import MEMORY_KINDS, WEIGHED_KINDS, Calibration, finding_feature, posteriors
from scoring.score import expected_score


def kinds_table(observed: Sequence[Observed], calibration: Calibration) -> Table:
    """Each finding kind's firings and precision on the fit half (as calibrated) and on the check
    half, its role and its weight per language; kinds that never fired are left out."""
    check = kind_stats([o for o in observed if o.solution.natural and o.solution.half == "check"])
    rows = []
    for kind in WEIGHED_KINDS:
        if kind in MEMORY_KINDS:  # measured where memory exists: `stepgrade study memory_sim --fit`
            continue
        fit = calibration.kinds.get(kind)
        unseen = fit is None or fit.wrong + fit.right == 0
        if unseen and check[kind].wrong + check[kind].right == 0:
            continue
        weights = {
            lang: m.weights.get(finding_feature(kind)) for lang, m in calibration.models.items()
        }
        c = check[kind]
        rows.append(
            (
                kind,
                fit.wrong if fit else 0,
                fit.right if fit else 0,
                fit.precision if fit else None,
                fit.likelihood_ratio if fit else None,
                c.wrong + c.right,
                c.precision,
                "decides" if fit and fit.decisive else "warns",
                *(weights[lang] for lang in sorted(calibration.models)),
            )
        )
    return Table(
        "kinds",
        "Finding kinds: fires on wrong / right steps (fit half), precision, "
        "likelihood ratio; the check half's firings and precision; role; log-odds weight",
        (
            "kind",
            "wrong",
            "right",
            "precision",
            "LR",
            "check fires",
            "check precision",
            "role",
            *(f"weight {lang}" for lang in sorted(calibration.models)),
        ),
        tuple(rows),
        note="precision: share of firings on wrong steps (on right steps for the support "
        "kinds calculation_true and answer_correct).",
    )


def _stepmath_row(grades: Sequence[Grade], half: str) -> tuple:
    labels, expected, gold = [], [], []
    for g in grades:
        sol = g.observed.solution
        labels.append(g.score)
        expected.append(expected_score(g.p_wrong, sol.problem_type, g.labels))  # type: ignore[arg-type]
        gold.append(sol.gold_score or 0)
    return (
        half,
        len(grades),
        pearson(labels, gold),
        score_error(grades, False),
        overlap_ratio(labels, gold),
        pearson(expected, gold),
        score_error(grades, True),
        float(np.mean(labels)),
        float(np.mean(expected)),
        float(np.mean(gold)),
    )


REDUNDANCY_TYPES = frozenset({"repeat step"})


def perturbation_type_aucs(grades: Sequence[Grade]) -> dict[str, tuple[int, float | None]]:
    """Per error type, (its count, the AUC of its solutions against the originals by the score
    that measures it in ReasonEval's protocol: redundancy for a repeated step, P(wrong) for
    the rest; a solution's score is its steps' maximum)."""
    originals = [g for g in grades if g.observed.solution.subset == "original"]
    perturbed = [g for g in grades if g.observed.solution.subset != "original"]
    out: dict[str, tuple[int, float | None]] = {}
    for kind in sorted({g.observed.solution.subset for g in perturbed}):
        group = [g for g in perturbed if g.observed.solution.subset == kind]
        redundant = kind.strip().lower() in REDUNDANCY_TYPES
        score = [
            max(g.redundancy if redundant else g.p_wrong, default=0.0) for g in (*group, *originals)
        ]
        value = auc([1] * len(group) + [0] * len(originals), score) if originals else None
        out[kind] = (len(group), value)
    return out


def perturbation_aucs(grades: Sequence[Grade]) -> tuple[float | None, float | None]:
    """(AUC of max P(wrong) over all perturbed solutions against the originals, the same with
    ReasonEval's protocol: each error type against the originals by the score that measures it,
    validity for invalid steps, redundancy for redundant ones; types weighted by their count)."""
    originals = [g for g in grades if g.observed.solution.subset == "original"]
    perturbed = [g for g in grades if g.observed.solution.subset != "original"]
    if not originals or not perturbed:
        return None, None
    risk = [max(g.p_wrong, default=0.0) for g in (*perturbed, *originals)]
    pooled = auc([1] * len(perturbed) + [0] * len(originals), risk)
    weighted, total = 0.0, 0
    for count, value in perturbation_type_aucs(grades).values():
        if value is not None:
            weighted, total = weighted + value * count, total + count
    return pooled, (weighted / total if total else None)


def agreement_tables(observed: Sequence[Observed], calibration: Calibration) -> list[Table]:
    """The grades against the human labels, per half: StepMathBench scores, first-error F1 and the
    perturbations' AUCs (overall and per error type); no table for a set that is absent."""
    sm, pb, pert = [], [], []
    by_type: dict[str, dict[str, tuple[int, float | None]]] = {}
    for half in ("fit", "check"):
        mine = [o for o in observed if o.solution.half == half]
        grades = grade_all(mine, calibration)
        stepmath = [g for g in grades if g.observed.solution.set == "stepmath"]
        if stepmath:
            sm.append(_stepmath_row(stepmath, half))
        for name in ("processbench", "mr_math_invalid"):
            chosen = [g for g in grades if g.observed.solution.set == name]
            if chosen:
                pb.append((name, half, len(chosen), first_error_f1(chosen)))
        perturbed = [g for g in grades if g.observed.solution.set == "perturbation"]
        if perturbed:
            pert.append((half, len(perturbed), *perturbation_aucs(perturbed)))
            for kind, found in perturbation_type_aucs(perturbed).items():
                by_type.setdefault(kind, {})[half] = found
    tables = []
    if sm:
        tables.append(
            Table(
                "stepmath",
                "StepMathBench: Eq. 1 on the decided labels and in "
                "expectation, against the human scores",
                (
                    "half",
                    "n",
                    "Corr",
                    "MSE",
                    "OR",
                    "Corr (expected)",
                    "MSE (expected)",
                    "mean score",
                    "mean expected",
                    "mean gold",
                ),
                tuple(sm),
            )
        )
    if pb:
        tables.append(
            Table(
                "first_error",
                "First wrong step: ProcessBench F1 (mean over its subsets), MR-MATH invalid F1",
                ("set", "half", "n", "F1"),
                tuple(pb),
            )
        )
    if pert:
        tables.append(
            Table(
                "perturbation",
                "Perturbations: solution scores rank perturbed solutions above the originals",
                ("half", "n", "AUC (max P(wrong))", "AUC (ReasonEval protocol)"),
                tuple(pert),
                note="ReasonEval protocol: a repeated step is a redundancy error, "
                "ranked by solution redundancy (max over steps); every other "
                "type by max P(wrong); per type against the originals, then "
                "averaged weighted by the type's count.",
            )
        )
    if by_type:
        halves = ("fit", "check")
        rows = tuple(
            (kind, *(v for h in halves for v in found.get(h, (0, None))))
            for kind, found in sorted(by_type.items())
        )
        tables.append(
            Table(
                "perturbation_types",
                "Perturbations per error type (ReasonEval "
                "protocol): count and AUC against the originals, per half",
                ("type", *(f"{c} {h}" for h in halves for c in ("n", "AUC"))),
                rows,
            )
        )
    return tables


def reliability_tables(observed: Sequence[Observed], calibration: Calibration) -> list[Table]:
    """The reported P(wrong) against the labelled steps (the grader's segmentation, StepMathBench
    labels carried onto it), per half, language and problem type: ECE over 10 equal-width bins
    (Guo et al. 2017, "On calibration of modern neural networks", Eq. 3) and the reliability
    table (mean predicted, observed wrong rate, steps per bin). Each solution counts once, as it
    is benchmarked; StepMathBench also on its human segmentation ("zh human"), where the issue
    measures it."""
    summary: list[tuple[Cell, ...]] = []
    bins: list[tuple[Cell, ...]] = []
    for half in ("fit", "check"):
        mine = [
            o
            for o in observed
            if o.solution.half == half
            and ((o.solution.natural and o.solution.scored) or o.solution.set == "stepmath_human")
        ]
        pairs: dict[tuple[str, str], list[tuple[float, bool]]] = {}
        for o in mine:
            posts = posteriors(o.inp, o.evidence, calibration)
            for post, wrong in zip(posts, o.solution.wrong, strict=True):
                if wrong is None:
                    continue
                language = o.solution.language + (
                    " human" if o.solution.set == "stepmath_human" else ""
                )
                for kind in ("all", o.inp.problem_type):
                    pairs.setdefault((language, kind), []).append((post.p_wrong, wrong))
        for (language, kind), found in sorted(pairs.items()):
            ece, rows = reliability(found)
            wrong_rate = sum(w for _, w in found) / len(found)
            mean_p = sum(p for p, _ in found) / len(found)
            summary.append((half, language, kind, len(found), mean_p, wrong_rate, ece))
            bins.extend((half, language, kind, label, n, p, rate) for label, n, p, rate in rows)
    if not summary:
        return []
    return [
        Table(
            "step_ece",
            "Step P(wrong) as reported (recalibrated) against the labelled "
            "steps: mean P(wrong), wrong rate and ECE (10 equal-width bins), per half, "
            "language and problem type",
            ("half", "language", "type", "steps", "mean P(wrong)", "wrong rate", "ECE"),
            tuple(summary),
        ),
        Table(
            "step_reliability",
            "Reliability table of the reported step P(wrong): per "
            "bin, steps, mean predicted and observed wrong rate",
            ("half", "language", "type", "bin", "steps", "mean P(wrong)", "wrong rate"),
            tuple(bins),
        ),
    ]


def ece_group(o: Observed) -> str:
    """The group a grade's steps are calibrated in: a proof or open-ended solution by its type,
    a calculation by the answer verdict the grader decided (right, wrong, unknown)."""
    if o.inp.problem_type != "calculation":
        return o.inp.problem_type
    verdict = o.inp.answer.deciding
    return "unknown" if verdict is None else "right" if verdict else "wrong"


def _step_rows(
    observed: Sequence[Observed], calibration: Calibration
) -> list[tuple[Observed, float, float, bool]]:
    """(solution, its weight, P(wrong), wrong) for every labelled step, weight 1."""
    out: list[tuple[Observed, float, float, bool]] = []
    for o in observed:
        posts = posteriors(o.inp, o.evidence, calibration)
        out.extend(
            (o, 1.0, post.p_wrong, bool(wrong))
            for post, wrong in zip(posts, o.solution.wrong, strict=True)
            if wrong is not None
        )
    return out


def _ece_with_spread(rows: Sequence[tuple[Observed, float, float, bool]]) -> tuple[float, ...]:
    """The weighted ECE and its 90% interval with the problems resampled."""
    keyed = [(o.solution.problem, (p, wrong, w)) for o, w, p, wrong in rows]
    found = cluster_interval(keyed, weighted_ece)
    if found is None:
        return (weighted_ece([r for _, r in keyed]), float("nan"), float("nan"))
    return (found.value, found.low, found.high)


def group_ece_tables(observed: Sequence[Observed], calibration: Calibration) -> list[Table]:
    """Step ECE per group of grades (answer right / wrong / unknown, proof, open-ended) and
    language, and StepMathBench's (human segmentation) re-weighted to the held-out mix
    (`HELD_OUT_MIX`, by raking on the human pass mark and the problem type), per half, each
    with its 90% interval over problems."""
    rows: list[tuple[Cell, ...]] = []
    for half in ("fit", "check"):
        mine = [
            o
            for o in observed
            if o.solution.half == half
            and ((o.solution.natural and o.solution.scored) or o.solution.set == "stepmath_human")
        ]
        steps = _step_rows(mine, calibration)
        by: dict[tuple[str, str], list[tuple[Observed, float, float, bool]]] = {}
        for row in steps:
            o = row[0]
            language = o.solution.language + (
                " human" if o.solution.set == "stepmath_human" else ""
            )
            for group in ("all", ece_group(o)):
                by.setdefault((language, group), []).append(row)
        for (language, group), found in sorted(by.items()):
            rows.append(
                (
                    half,
                    language,
                    group,
                    len(found),
                    sum(p for _, _, p, _ in found) / len(found),
                    sum(w for *_, w in found) / len(found),
                    *_ece_with_spread(found),
                )
            )
        human = [
            o
            for o in mine
            if o.solution.set == "stepmath_human" and o.solution.gold_score is not None
        ]
        if human and any(o.inp.problem_type == "proof" for o in human):
            weights = mix_weights(
                [o.inp.problem_type == "proof" for o in human],
                [
                    (o.solution.gold_score or 0) <= 5
                    if o.inp.problem_type != "calculation"
                    else o.solution.wrong[-1] is True
                    for o in human
                ],
                HELD_OUT_MIX["proof"],
                HELD_OUT_MIX["failed"],
            )
            weight_of = {id(o): w for o, w in zip(human, weights, strict=True)}
            mixed = [
                (o, weight_of[id(o)], p, wrong) for o, _, p, wrong in steps if id(o) in weight_of
            ]
            total = sum(w for _, w, _, _ in mixed)
            rows.append(
                (
                    half,
                    "zh human",
                    "held-out mix",
                    len(mixed),
                    sum(w * p for _, w, p, _ in mixed) / total,
                    sum(w * wrong for _, w, _, wrong in mixed) / total,
                    *_ece_with_spread(mixed),
                )
            )
    return (
        [
            Table(
                "step_ece_groups",
                "Step P(wrong) per group of grades (a calculation by the "
                "answer verdict decided; proof; open-ended) and re-weighted to the held-out mix "
                f"({HELD_OUT_MIX['failed']:.0%} of solutions below the pass mark, "
                f"{HELD_OUT_MIX['proof']:.0%} proofs): mean P(wrong), wrong rate, ECE and its "
                "90% interval over problems",
                (
                    "half",
                    "language",
                    "group",
                    "steps",
                    "mean P(wrong)",
                    "wrong rate",
                    "ECE",
                    "low",
                    "high",
                ),
                tuple(rows),
                note="below the pass mark: a calculation whose final step humans labelled "
                "wrong, a proof or open-ended solution scored 5 or less.",
            )
        ]
        if rows
        else []
    )
