"""P(step wrong) in log-odds: the prior and the findings' weights from the calibration, plus,
in LLM mode, the model's label (docs/architecture.md 4.10).

Two posteriors come out of one sum. `p_wrong` counts every finding: it is the report's
probability and sets validity. `p_decide` is the same sum without the findings of kinds that
only warn: the threshold a model's label may be overruled at, and the first-error guess, read
it, so a low-precision kind can lower a step's validity but never change a decision.

What the decisive checks established about the step (`check_state`: a refuting finding, support,
or nothing) is read before any probability: it is what the offline label follows. The reported
sum is recalibrated per group of grades, state or problem type (`StepModel.recalibrated`: Platt
scaling fitted out of fold) before a model's label is added: the offline posterior is made
calibrated among steps of grades alike (the answer right, wrong or unknown; a proof) that the
checks left alike, so that it holds whatever the mix of such grades; the model's word then
updates it as any evidence does.

A refuted step's P(wrong) is at least the measured precision of the kind that refuted it: the
prior's length and place weights were fitted on long model-written steps, and on a student's
short first step they would put a false calculation, labelled wrong, at P(wrong) 0.3. A finding
counts by its measured precision: how often such a check, where it fired, was right.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.judge.calibration import Calibration, StepModel
from scoring.judge.decide.features import (
    SolutionContext,
    finding_feature,
    grade_group,
    solution_context,
    step_features,
)
from scoring.judge.decide.reliability import RELIABILITY, Reliability
from scoring.judge.findings import MEMORY_KINDS, Evidence, Finding, FindingKind
from scoring.judge.input import JudgeInput
from scoring.schema import StepState


@dataclass(frozen=True)
class StepPosterior:
    """One step's probability of being wrong and the findings behind it, kept apart so the
    decision can tell decisive evidence from warnings."""

    p_wrong: float  # from all the evidence
    p_decide: float  # without the findings of kinds that only warn
    counted: tuple[Finding, ...]  # findings of decisive kinds
    warned: tuple[Finding, ...]  # findings of kinds that only warn
    strongest: Finding | None  # the decisive error finding of the largest weight
    # log-odds of the decisive findings plus, in LLM mode, the model's label: the evidence
    # without the prior (positive: it says wrong on balance)
    evidence_log_odds: float = 0.0
    state: StepState = "unchecked"  # what the decisive checks established (`check_state`)


def check_state(counted: Sequence[Finding], checks_log_odds: float) -> StepState:
    """What the decisive checks established about a step: a refuting finding that their
    evidence as a whole bears out (`fails`), support and no refutation (`holds`), else
    `unchecked`; a step where a refutation and a support cancel out is not decided either way."""
    if any(f.polarity == "error" for f in counted):
        return "fails" if checks_log_odds > 0 else "unchecked"
    return "holds" if counted else "unchecked"


def sigmoid(x: float) -> float:
    """The logistic function, written so that neither branch overflows."""
    return 1.0 / (1.0 + math.exp(-x)) if x >= 0 else math.exp(x) / (1.0 + math.exp(x))


def _weight(model: StepModel, kinds: Iterable[FindingKind]) -> float:
    """What findings of these kinds add to a step's log-odds: each kind once (an indicator)."""
    return sum(model.weights.get(finding_feature(kind), 0.0) for kind in set(kinds))


def memory_log_odds(calibration: Calibration, kinds: Iterable[FindingKind]) -> float:
    """What findings against the problem's memory add to a step's log-odds: the log of each
    kind's measured likelihood ratio, P(fires | wrong) / P(fires | right), once per kind (Bayes'
    rule in odds form). The step model never saw memory, so nothing of it is counted twice."""
    total = 0.0
    for kind in set(kinds) & MEMORY_KINDS:
        stats = calibration.stats(kind)
        if stats is not None and stats.likelihood_ratio:
            total += math.log(stats.likelihood_ratio)
    return total


def _logit(p: float) -> float:
    p = min(max(p, 1e-12), 1.0 - 1e-12)
    return math.log(p / (1.0 - p))


def _prior_and_findings(
    model: StepModel,
    inp: JudgeInput,
    i: int,
    found: Sequence[Finding],
    warnings: float,
    context: SolutionContext,
) -> tuple[float, float]:
    """The step's log-odds from every finding, and without the warnings' weight.

    A calculation graded without a reference answer (and no model's verdict), in a language
    whose model saw too few such solutions to fit their prior (`StepModel.verdict_prior` set),
    reads the mixture over the verdict it would have seen: P(wrong) = pi P(wrong | right
    answer) + (1 - pi) P(wrong | wrong answer), pi the share of right answers it was fit on (the
    law of total probability, the verdict a latent variable). Read as it is, such a step takes
    the model's bias, which the steps of proofs and open-ended solutions identified (P(wrong)
    0.53 for every step of a Chinese calculation without a reference, where a right answer's
    steps read 0.08)."""
    if (
        model.verdict_prior is None
        or inp.problem_type != "calculation"
        or inp.answer.deciding is not None
        or inp.answer.reference
    ):
        raw = model.log_odds(step_features(inp, i, found, context=context))
        return raw, raw - warnings
    pi = model.verdict_prior
    right = model.log_odds(step_features(inp, i, found, supposed=True, context=context))
    wrong = model.log_odds(step_features(inp, i, found, supposed=False, context=context))

    def mixed(less: float) -> float:
        return _logit(pi * sigmoid(right - less) + (1 - pi) * sigmoid(wrong - less))

    return mixed(0.0), mixed(warnings)


def _refuting_precision(counted: Sequence[Finding], calibration: Calibration) -> float:
    """The measured precision of the most precise error kind among a refuted step's findings:
    how often a step where such a check fired was wrong on the fit half."""
    return max(
        (
            stats.precision
            for f in counted
            if f.polarity == "error"
            and (stats := calibration.kinds.get(f.kind)) is not None
            and stats.precision is not None
        ),
        default=0.0,
    )


def _posterior(
    model: StepModel,
    inp: JudgeInput,
    i: int,
    found: Sequence[Finding],
    calibration: Calibration,
    said: float | None,
    context: SolutionContext,
) -> StepPosterior:
    """One step's posterior from the findings `found` about it; `said` is the log likelihood
    ratio of a model's label (None offline)."""
    counted = tuple(f for f in found if calibration.decisive(f.kind))
    warned = tuple(f for f in found if not calibration.decisive(f.kind))
    warnings = _weight(model, (f.kind for f in warned))
    raw, decide = _prior_and_findings(model, inp, i, found, warnings, context)
    remembered = memory_log_odds(calibration, (f.kind for f in counted))
    checks = _weight(model, (f.kind for f in counted)) + remembered
    state = check_state(counted, checks)
    full = (
        model.recalibrated(raw, inp.problem_type, state, grade_group(inp))
        + remembered
        + memory_log_odds(calibration, (f.kind for f in warned))
    )
    decide += remembered
    if state == "fails":
        full = max(full, _logit(_refuting_precision(counted, calibration)))
    if said is not None:
        full, decide, checks = full + said, decide + said, checks + said
    errors = [f for f in counted if f.polarity == "error"]
    strongest = max(errors, key=lambda f: _weight(model, (f.kind,)), default=None)
    return StepPosterior(sigmoid(full), sigmoid(decide), counted, warned, strongest, checks, state)


def posteriors(
    inp: JudgeInput,
    evidence: Evidence,
    calibration: Calibration,
    model_says_wrong: Sequence[bool | None] | None = None,
    reliability: Reliability = RELIABILITY,
) -> list[StepPosterior]:
    """Each step's posterior from the prior, the findings' weights and, in LLM mode, the
    model's label weighed by its reliability."""
    model = calibration.model(inp.language)
    context = solution_context(inp, evidence, model.difficulty)
    out: list[StepPosterior] = []
    for i in range(len(inp.steps)):
        says = None if model_says_wrong is None else model_says_wrong[i]
        said = None if says is None else reliability.log_likelihood_ratio(says)
        out.append(_posterior(model, inp, i, evidence.at(i), calibration, said, context))
    return out


def posterior_without(
    inp: JudgeInput,
    evidence: Evidence,
    calibration: Calibration,
    i: int,
    kinds: Iterable[FindingKind],
) -> StepPosterior:
    """Step `i`'s offline posterior had the findings of `kinds` not been made: what the step
    is worth in itself when those findings only repeat an earlier step's error."""
    left_out = set(kinds)
    found = [f for f in evidence.at(i) if f.kind not in left_out]
    model = calibration.model(inp.language)
    return _posterior(
        model, inp, i, found, calibration, None, solution_context(inp, evidence, model.difficulty)
    )
