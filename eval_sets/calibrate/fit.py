"""Fit the evidence model on the fit half: kinds' worth, one step model per language, thresholds.

1. Each finding kind's precision and likelihood ratio on the labelled steps of the natural sets
   (perturbations are synthetic and easier: they are reported, never fitted). A kind is decisive
   (it may move a label) when its precision is at least `MIN_PRECISION` over at least
   `MIN_FIRES` firings; otherwise it only warns.
2. Per language, an L2 logistic regression of "this step is wrong" on the prior's features and
   the findings. Which prior features to use is chosen by two-fold cross-validation inside the
   fit half, on what the grades of that language are judged by: the first-error F1 of English
   first-error sets (ProcessBench, MR-MATH), the squared error of the expected Eq. 1 score against
   the human score for Chinese StepMathBench.
3. Per language, the label threshold on P(wrong), chosen on the whole fit half by the same
   measures (squared error of the Eq. 1 score from the decided labels, for StepMathBench), and
   how offline labels are decided: each step on that threshold, or together so that Eq. 1 on the
   labels is closest to its expectation (`scoring.judge.decide.expected`), whichever the
   language's measure prefers on the fit half.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from eval_sets.calibrate.evidence import Observed
from eval_sets.calibrate.logistic import fit_logistic
from eval_sets.metrics.processbench import processbench_score
from eval_sets.metrics.scores import mse
from scoring.judge import (
    CONTINUOUS,
    FALSE_RELATION_KINDS,
    MEMORY_KINDS,
    REDUNDANCY_KINDS,
    SUPPORT_KINDS,
    WEIGHED_KINDS,
    Calibration,
    Evidence,
    FindingKind,
    JudgeInput,
    KindStats,
    StepModel,
    decide,
    finding_feature,
    step_features,
)
from scoring.judge import (
    DecisionRule as Decision,
)
from scoring.score import build_tree, expected_score, score_solution
from scoring.verdict import FirstErrorGuess, StepVerdict

MIN_PRECISION = 0.5
MIN_FIRES = 5
MIN_FIRES_WEIGHTED = 3  # a kind seen fewer times gets no weight at all
MIN_NO_VERDICT = 20  # calculations graded without a reference, to fit their prior (as a cell)
L2 = 0.1
THRESHOLDS = tuple(round(t, 3) for t in np.arange(0.05, 0.951, 0.025))
LENIENCES = tuple(round(d, 1) for d in np.arange(0.0, 1.01, 0.1))  # points of Eq. 1

_ANSWER = ("bias", "proof", "open_ended", "answer_correct_earlier", "answer_wrong_earlier")
_POSITION = ("position", "first", "second", "third", "last", "log_steps")
_CONTENT = ("log_chars", "log_numbers", "log_relations", "log_problem_chars")
# What moves between sets of problems: how hard they are, where the step stands against the
# first false relation a check found, and how errors gather towards a wrong answer.
_MIX = (
    "wrong_position",
    "before_false_relation",
    "after_false_relation",
    "difficulty",
    "wrong_difficulty",
)
FEATURE_SETS: dict[str, tuple[str, ...]] = {
    "answer": _ANSWER,
    "position": (*_ANSWER, *_POSITION),
    "content": (*_ANSWER, *_POSITION, *_CONTENT),
    "mix": (*_ANSWER, *_MIX),
    "content+mix": (*_ANSWER, *_POSITION, *_CONTENT, *_MIX),
}


def natural(observed: Sequence[Observed], half: str | None = None) -> list[Observed]:
    """The solutions with natural errors (the perturbations left out), of one half or of both."""
    return [o for o in observed if o.solution.natural and (half is None or o.solution.half == half)]


def kind_stats(observed: Sequence[Observed]) -> dict[FindingKind, KindStats]:
    """Firings on labelled wrong and right steps, precision, likelihood ratio, decisiveness.

    A solution present twice (ProcessBench with and without its reference answer) is counted
    once, in the copy that knows its answer."""
    fires: dict[FindingKind, list[int]] = defaultdict(lambda: [0, 0])
    wrong_total = right_total = 0
    for o in observed:
        if o.solution.duplicate:
            continue
        for i, wrong in enumerate(o.solution.wrong):
            if wrong is None:
                continue
            wrong_total += wrong
            right_total += not wrong
            for kind in {f.kind for f in o.evidence.at(i)}:
                fires[kind][0 if wrong else 1] += 1
    return stats_of_fires(fires, wrong_total, right_total)


def stats_of_fires(
    fires: dict[FindingKind, list[int]],
    wrong_total: int,
    right_total: int,
    kinds: Sequence[FindingKind] | None = None,
) -> dict[FindingKind, KindStats]:
    """Each kind's statistics from its firings ([on wrong steps, on right steps]) among
    `wrong_total` wrong and `right_total` right labelled steps: the precision, the likelihood
    ratio P(fires | wrong) / P(fires | right) with half a firing added to each count (so that
    no count makes it 0 or infinite), and whether it is decisive."""
    stats: dict[FindingKind, KindStats] = {}
    # memory kinds fire only where memory exists: they are measured by `eval_sets.memory_kinds`
    for kind in kinds if kinds is not None else [k for k in WEIGHED_KINDS if k not in MEMORY_KINDS]:
        w, r = fires.get(kind, [0, 0])
        if w + r == 0:
            stats[kind] = KindStats(0, 0, None, None, False)
            continue
        hits = r if kind in SUPPORT_KINDS else w
        precision = hits / (w + r)
        lr = ((w + 0.5) / (wrong_total + 1)) / ((r + 0.5) / (right_total + 1))
        decisive = (
            precision >= MIN_PRECISION and w + r >= MIN_FIRES and kind not in REDUNDANCY_KINDS
        )
        stats[kind] = KindStats(w, r, round(precision, 4), round(lr, 4), decisive)
    return stats


def verdict_prior(observed: Sequence[Observed]) -> float | None:
    """P(the final answer is right) among one language's labelled calculations with a verdict,
    when fewer than `MIN_NO_VERDICT` were graded without a reference answer: too few to fit the
    prior of a step whose answer nobody can check, which then reads the mixture over the verdict
    (`scoring.judge.decide.posterior`). None when there are enough (English: ProcessBench is
    also graded without its reference) or no verdict at all."""
    unchecked = sum(
        1 for o in observed if o.inp.problem_type == "calculation" and not o.inp.answer.reference
    )
    verdicts = [
        o.inp.answer.deciding
        for o in observed
        if o.inp.problem_type == "calculation"
        and not o.solution.duplicate
        and o.inp.answer.deciding is not None
    ]
    if unchecked >= MIN_NO_VERDICT or not verdicts:
        return None
    return round(sum(verdicts) / len(verdicts), 4)


def weighted_kinds(stats: dict[FindingKind, KindStats]) -> list[FindingKind]:
    """Kinds seen often enough to be given a weight (redundancy is not about being wrong)."""
    return [
        k
        for k, s in stats.items()
        if s.wrong + s.right >= MIN_FIRES_WEIGHTED and k not in REDUNDANCY_KINDS
    ]


# One reading in several places: a relation the bounded evaluator found false
# (`FALSE_RELATION_KINDS`, the kinds the step model's place features read too).
FALSE_RELATION = "family:false_relation"
# One reading in two places: the final answer does not equal the reference (marked, or no
# expression of the closing lines equals it).
ANSWER_WRONG_KINDS: tuple[FindingKind, ...] = ("answer_wrong", "answer_unmarked_wrong")
ANSWER_WRONG = "family:answer_wrong"
FAMILIES: dict[str, tuple[FindingKind, ...]] = {
    FALSE_RELATION: FALSE_RELATION_KINDS,
    ANSWER_WRONG: ANSWER_WRONG_KINDS,
}


def _design(
    observed: Sequence[Observed], names: Sequence[str], pooled: Sequence[FindingKind] = ()
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The labelled steps' features `names`; a `family:` feature among them is 1 when any
    finding of the `pooled` kinds is about the step."""
    rows, labels, weights = [], [], []
    for o in observed:
        for i, wrong in enumerate(o.solution.wrong):
            if wrong is None:
                continue
            found = o.evidence.at(i)
            values = step_features(o.inp, i, found, context=o.context)
            family = float(any(f.kind in pooled for f in found))
            rows.append([family if n in FAMILIES else values.get(n, 0.0) for n in names])
            labels.append(float(wrong))
            weights.append(o.solution.weight)
    if not rows or len(set(labels)) < 2:
        raise ValueError("too few labelled steps (or only one class) to fit the step model")
    return np.array(rows), np.array(labels), np.array(weights)


def _fit(
    observed: Sequence[Observed],
    names: Sequence[str],
    l2: float,
    pooled: Sequence[FindingKind] = (),
) -> dict[str, float]:
    x, y, w = _design(observed, names, pooled)
    beta = fit_logistic(x, y, l2, w)
    return {n: round(float(b), 4) for n, b in zip(names, beta, strict=True)}


def fit_weights(
    observed: Sequence[Observed], features: Sequence[str], l2: float = L2
) -> dict[str, float]:
    """One logistic regression of "this step is wrong" on the prior's features and the
    findings: a finding's weight is its log-odds ratio given the rest (its likelihood ratio
    conditioned on where the step stands and what it says, not the marginal one of the
    table).

    A kind gets a weight of its own only where it fired often enough on the labelled steps
    being fitted (`observed`: one language's) to be weighed; how often it fired in another
    language says nothing of its weight here. A kind that fired too rarely backs off to its
    family's weight (Katz's back-off, in spirit): the weight of "some relation was found
    false", or of "the final answer is not the reference", fitted the same way with the
    family's kinds as one feature. Left at nothing, or at what two firings say, such a finding
    would count for less than a vaguer one (a number nobody explains), though it says the same
    as its family's other kinds."""
    own = weighted_kinds(kind_stats(observed))
    weights = _fit(observed, [*features, *(finding_feature(k) for k in own)], l2)
    for family, kinds in FAMILIES.items():
        thin = [k for k in kinds if k not in own]
        if thin and len(thin) < len(kinds):
            rest = [finding_feature(k) for k in own if k not in kinds]
            weighed = _fit(observed, [*features, *rest, family], l2, kinds)
            weights.update({finding_feature(k): weighed[family] for k in thin})
    return weights


def feature_ranges(
    observed: Sequence[Observed], features: Sequence[str]
) -> dict[str, tuple[float, float]]:
    """The 1st to 99th percentile of each continuous feature over the labelled steps: where the
    model's weights were fit, and so where they may be read."""
    values: dict[str, list[float]] = {n: [] for n in features if n in CONTINUOUS}
    for o in observed:
        for i, wrong in enumerate(o.solution.wrong):
            if wrong is None:
                continue
            found = step_features(o.inp, i, (), context=o.context)
            for name, seen in values.items():
                if name in found:  # the difficulty, only with an estimate
                    seen.append(found[name])
    return {
        n: (round(float(np.percentile(v, 1)), 4), round(float(np.percentile(v, 99)), 4))
        for n, v in values.items()
        if v
    }


# ------------------------------------------------------------------- what grades are judged by


@dataclass(frozen=True)
class Grade:
    observed: Observed
    labels: list[str]
    p_wrong: list[float]
    redundancy: list[float]
    score: int  # Eq. 1 on the labels, an unchecked step at its expected point
    first_error: int | None  # the most likely first error (0-based), the best guess


def decided(
    inp: JudgeInput, evidence: Evidence, calibration: Calibration
) -> tuple[list[StepVerdict], list[str], FirstErrorGuess | None]:
    """An offline grade's verdicts, its labels through the dependency tree, and the most likely
    first error, as the grader decides them."""
    decision = decide(inp, evidence, calibration)
    verdicts = decision.verdicts
    tree = build_tree(
        [v.label for v in verdicts], [[d - 1 for d in v.depends_on] for v in verdicts]
    )
    return verdicts, list(tree.labels), decision.first_error


def verdict_score(verdicts: Sequence[StepVerdict], labels: Sequence[str], problem_type: str) -> int:
    """Eq. 1 (StepMathAgent's policy) as the report's score reads it."""
    return score_solution(
        labels,  # type: ignore[arg-type]
        problem_type,  # type: ignore[arg-type]
        p_wrong=[v.p_wrong for v in verdicts],
        own=[v.follow_credit for v in verdicts],
    ).score


def grade_all(observed: Sequence[Observed], calibration: Calibration) -> list[Grade]:
    """Each solution graded with `calibration`: the decided labels (through the dependency tree),
    P(wrong) and redundancy per step, the score and the most likely first error."""
    out = []
    for o in observed:
        verdicts, labels, first = decided(o.inp, o.evidence, calibration)
        score = verdict_score(verdicts, labels, o.inp.problem_type) if labels else 0
        out.append(
            Grade(
                o,
                labels,
                [v.p_wrong or 0.0 for v in verdicts],
                [v.redundancy for v in verdicts],
                score,
                None if first is None else first.step,
            )
        )
    return out


def first_error_f1(grades: Sequence[Grade]) -> float:
    """ProcessBench's F1, averaged over subsets (a set's id prefix: gsm8k, math, ...), on the
    solutions graded as benchmarked (`LabelledSolution.scored`)."""
    by: dict[str, tuple[list[int | None], list[int | None]]] = defaultdict(lambda: ([], []))
    for g in grades:
        sol = g.observed.solution
        if not sol.scored:
            continue
        subset = f"{sol.set}:{sol.id.split('-')[1]}" if sol.set == "processbench" else sol.set
        pred = g.first_error
        gold = next((i for i, w in enumerate(sol.wrong) if w), None)
        by[subset][0].append(pred)
        by[subset][1].append(gold)
    scores = [f1 for p, q in by.values() if (f1 := processbench_score(p, q).f1) is not None]
    return float(np.mean(scores)) if scores else 0.0


def score_error(grades: Sequence[Grade], expected: bool, absolute: bool = False) -> float:
    """Mean squared (or absolute) error of the Eq. 1 score against the human score
    (StepMathBench)."""
    pred, gold = [], []
    for g in grades:
        sol = g.observed.solution
        if sol.gold_score is None:
            continue
        kind = sol.problem_type
        pred.append(
            expected_score(g.p_wrong, kind, g.labels)  # type: ignore[arg-type]
            if expected
            else g.score
        )
        gold.append(sol.gold_score)
    if absolute:
        return float(np.mean(np.abs(np.subtract(pred, gold)))) if pred else 0.0
    return mse(pred, gold) or 0.0


Objective = Callable[[Sequence[Grade]], float]


def objectives(language: str) -> tuple[Objective, Objective, Objective]:
    """(how to choose the features, the threshold, the most-likely-first-error rule), to
    maximise.

    Chinese StepMathBench grades are judged by their score, which reads the step model where
    no check decided a step (an unchecked step earns its expected point): its features are
    chosen on the squared error of the score against the human score. The threshold and the
    rule only make the best guess at the first error (labels rest on evidence), so they are
    chosen on the first-error F1 in every language, English first-error sets choosing the
    features too."""
    if language == "zh":
        return (lambda g: -score_error(g, expected=False)), first_error_f1, first_error_f1
    return first_error_f1, first_error_f1, first_error_f1


# ------------------------------------------------------------------------------- the fitting


def _fold(problem: str) -> int:
    return hashlib.sha1(problem.encode("utf-8")).digest()[1] % 2


def _calibration(
    language: str,
    weights: dict[str, float],
    threshold: float,
    stats: dict[FindingKind, KindStats],
    ranges: dict[str, tuple[float, float]],
    decision: Decision = "threshold",
    lenience: float = 0.0,
) -> Calibration:
    model = StepModel(weights, threshold, ranges, decision, lenience)
    return Calibration("fitting", {"en": model, language: model}, stats)


def best_threshold(
    observed: Sequence[Observed],
    language: str,
    weights: dict[str, float],
    stats: dict[FindingKind, KindStats],
    objective: Objective,
    ranges: dict[str, tuple[float, float]],
) -> tuple[float, float]:
    """The threshold that maximises `objective` (on a tie, the one nearest 0.5) and the objective
    there."""
    scored = [
        (
            objective(grade_all(observed, _calibration(language, weights, t, stats, ranges))),
            -abs(t - 0.5),
            t,
        )
        for t in THRESHOLDS
    ]
    best = max(scored)
    return best[2], best[0]


def best_decision(
    observed: Sequence[Observed],
    language: str,
    weights: dict[str, float],
    threshold: float,
    stats: dict[FindingKind, KindStats],
    objective: Objective,
    ranges: dict[str, tuple[float, float]],
) -> tuple[Decision, float, dict[str, float]]:
    """The offline decision rule the objective prefers (the threshold on a tie) with its
    lenience, and the objective of each candidate ("threshold", "expected+0.3", ...)."""

    def value(rule: Decision, lenience: float) -> float:
        calibration = _calibration(language, weights, threshold, stats, ranges, rule, lenience)
        return round(objective(grade_all(observed, calibration)), 4)

    values = {"threshold": value("threshold", 0.0)}
    values.update({f"expected+{d:g}": value("expected", d) for d in LENIENCES})
    best = max(LENIENCES, key=lambda d: (values[f"expected+{d:g}"], -d))
    if values[f"expected+{best:g}"] > values["threshold"]:
        return "expected", best, values
    return "threshold", 0.0, values


@dataclass(frozen=True)
class LanguageFit:
    language: str
    feature_set: str
    cv: dict[str, float]
    model: StepModel
    decisions: dict[str, float]  # the objective of each decision rule on the fit half


def fit_language(
    observed: Sequence[Observed], language: str, stats: dict[FindingKind, KindStats]
) -> LanguageFit:
    """Choose the features by two-fold cross-validation inside `observed`, then fit on all of it."""
    choose_features, choose_threshold, choose_decision = objectives(language)
    folds = [[o for o in observed if _fold(o.solution.problem) == k] for k in (0, 1)]
    cv: dict[str, float] = {}
    for name, features in FEATURE_SETS.items():
        results = []
        for k in (0, 1):
            train, test = folds[1 - k], folds[k]
            weights = fit_weights(train, features)
            ranges = feature_ranges(train, features)
            threshold, _ = best_threshold(train, language, weights, stats, choose_threshold, ranges)
            model = _calibration(language, weights, threshold, stats, ranges)
            results.append(choose_features(grade_all(test, model)))
        cv[name] = round(float(np.mean(results)), 4)
    chosen = max(cv, key=lambda n: (cv[n], -len(FEATURE_SETS[n])))
    weights = fit_weights(observed, FEATURE_SETS[chosen])
    ranges = feature_ranges(observed, FEATURE_SETS[chosen])
    threshold, _ = best_threshold(observed, language, weights, stats, choose_threshold, ranges)
    decision, lenience, values = best_decision(
        observed, language, weights, threshold, stats, choose_decision, ranges
    )
    return LanguageFit(
        language, chosen, cv, StepModel(weights, threshold, ranges, decision, lenience), values
    )
