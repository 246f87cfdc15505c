"""Post-hoc recalibration of the step model's reported P(wrong), per language (and problem type
when that holds up out of fold).

The step model is fit by penalised logistic regression on the fit half; read on steps it was not
fit on, its probabilities drift (over-confident, and the share of wrong steps per problem type
off). Platt scaling (Platt 1999, Eq. 1 and section 2.2) fits `sigmoid(slope * log_odds +
intercept)` on log-odds the model gave to steps it did not see: the fit half is cut into `FOLDS`
folds by problem, each fold's steps are scored by a model fit on the other folds with the
language's chosen features, and the maps are fit on those out-of-fold log-odds, with Platt's
smoothed targets `(N+ + 1) / (N+ + 2)` and `1 / (N- + 2)`.

Several scopes are tried: one map per problem type; one per state (what the decisive checks
established of the step: refuted, supported, or nothing; `scoring.judge.decide.posterior.
check_state`); one per group of grades (the answer right, wrong or unknown; proof; open-ended:
`scoring.judge.decide.features.grade_group`); one per group and state; or the language's one map
for every step. A type, state or group with fewer than `MIN_STEPS` labelled steps, or fewer than
`MIN_CLASS` of either class, reads the next map along `scoring.judge.calibration.
recalibration_keys`, the language's (`ANY_TYPE`) last. The scope whose maps, fit on four folds,
leave the fifth better calibrated is kept: the ECE over the folds, averaged over the groups of
grades with enough steps, each group alike (a scope that calibrates the pooled steps by trading
one group's error against another's would not hold on another mix of groups). A map per state
calibrates a refuted step's P(wrong) among refuted steps (the prior of a short first step may be
low, but a false calculation in it is wrong about as often as false calculations are); a map per
group keeps each group calibrated in itself, so the P(wrong) holds when the mix of groups moves.

Histogram binning or isotonic regression (Zadrozny & Elkan 2001, 2002) would fit a bend Platt
cannot, and so would per-value binning shrunk toward Platt; on a few hundred steps per cell its
cross-validated ECE is no lower than Platt's, and a step-wise map ties steps it does not need to
tie (rankings and AUC would move); two parameters keep the order of the steps.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from eval_sets.calibrate.evidence import Observed
from eval_sets.calibrate.fit import feature_ranges, fit_weights
from eval_sets.calibrate.logistic import fit_logistic
from eval_sets.metrics.risk import reliability
from scoring.judge import (
    ANY_TYPE,
    GROUP_KEY,
    STATE_KEY,
    FindingKind,
    Platt,
    StepModel,
    check_state,
    finding_feature,
    grade_group,
    sigmoid,
    step_features,
)

FOLDS = 5
MIN_STEPS = 150
MIN_CLASS = 15
MIN_SPREAD = 0.1  # log-odds: below this standard deviation the slope is not identified


@dataclass(frozen=True)
class Scored:
    """A labelled step's out-of-fold log-odds of being wrong."""

    log_odds: float
    wrong: bool
    weight: float
    problem_type: str
    fold: int = 0  # the fold it was held out in
    state: str = "unchecked"  # what the decisive checks established of it
    group: str = "no_verdict"  # its grade's group (`grade_group`)

    def keys(self, scope: Scope) -> list[str]:
        """The maps this step reads under `scope`, the most specific first (then `ANY_TYPE`)."""
        state, group = f"{STATE_KEY}{self.state}", f"{GROUP_KEY}{self.group}"
        return {
            "per_type": [self.problem_type],
            "per_state": [state],
            "per_group": [group],
            "per_group_state": [f"{group}|{state}", group],
            "pooled": [],
        }[scope]


def fold_of(problem: str, folds: int = FOLDS) -> int:
    """A fold inside the fit half, by problem (a byte of the hash neither the halves nor the
    feature choice's two folds read)."""
    return hashlib.sha1(problem.encode("utf-8")).digest()[2] % folds


def out_of_fold(
    observed: Sequence[Observed],
    features: Sequence[str],
    targets: Sequence[Observed] | None = None,
    decisive: frozenset[FindingKind] = frozenset(),
) -> list[Scored]:
    """The labelled steps of `targets` (default: `observed`) scored by a model fit on the
    `observed` solutions of the other folds: never on their own problem; each with its state
    under the `decisive` kinds."""
    out: list[Scored] = []
    targets = observed if targets is None else targets
    for k in range(FOLDS):
        train = [o for o in observed if fold_of(o.solution.problem) != k]
        test = [o for o in targets if fold_of(o.solution.problem) == k]
        if not test:
            continue
        model = StepModel(fit_weights(train, features), 0.5, feature_ranges(train, features))
        for o in test:
            for i, wrong in enumerate(o.solution.wrong):
                if wrong is not None:
                    found = o.evidence.at(i)
                    z = model.log_odds(step_features(o.inp, i, found, context=o.context))
                    counted = [f for f in found if f.kind in decisive]
                    checks = sum(
                        model.weights.get(finding_feature(kind), 0.0)
                        for kind in {f.kind for f in counted}
                    )
                    out.append(
                        Scored(
                            z,
                            wrong,
                            o.solution.weight,
                            o.inp.problem_type,
                            k,
                            check_state(counted, checks),
                            grade_group(o.inp),
                        )
                    )
    return out


def fit_platt(scored: Sequence[Scored]) -> Platt | None:
    """Platt's two parameters by weighted logistic regression on smoothed targets; None when
    the steps are too few or one class is too rare.

    When the log-odds hardly vary (a language whose model reads only the problem type and the
    answer verdict gives every proof step nearly one value), the slope is not identified: the
    map is then a shift of the log-odds alone (slope 1), the intercept fitted the same way."""
    wrong = sum(s.weight for s in scored if s.wrong)
    right = sum(s.weight for s in scored if not s.wrong)
    if len(scored) < MIN_STEPS or min(wrong, right) < MIN_CLASS:
        return None
    hi, lo = (wrong + 1) / (wrong + 2), 1 / (right + 2)
    z = np.array([s.log_odds for s in scored])
    y = np.array([hi if s.wrong else lo for s in scored])
    w = np.array([s.weight for s in scored])
    if float(np.std(z)) >= MIN_SPREAD:
        beta = fit_logistic(np.column_stack([np.ones_like(z), z]), y, 0.0, w)
        intercept, slope = float(beta[0]), float(beta[1])
        if math.isfinite(slope) and math.isfinite(intercept) and slope > 0:
            return Platt(round(slope, 4), round(intercept, 4), len(scored))
    return Platt(1.0, round(_shift(z, y, w), 4), len(scored))


def _shift(z: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    """The b maximising the weighted likelihood of sigmoid(z + b) (Newton's method)."""
    b = 0.0
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp(-np.clip(z + b, -30, 30)))
        step = float(np.sum(w * (y - p)) / max(float(np.sum(w * p * (1 - p))), 1e-12))
        b += step
        if abs(step) < 1e-10:
            break
    return b


Scope = Literal["per_type", "per_state", "per_group", "per_group_state", "pooled"]
# the first wins a tie: fewer parameters
SCOPES: tuple[Scope, ...] = ("pooled", "per_type", "per_state", "per_group", "per_group_state")


def maps_of(scored: Sequence[Scored], scope: Scope) -> dict[str, Platt]:
    """`ANY_TYPE`'s map on all the steps and, per type or per state with enough steps when
    `scope` says so, its own."""
    maps: dict[str, Platt] = {}
    for key in sorted({k for s in scored for k in s.keys(scope)}):
        platt = fit_platt([s for s in scored if key in s.keys(scope)])
        if platt is not None:
            maps[key] = platt
    pooled = fit_platt(scored)
    if pooled is not None:
        maps[ANY_TYPE] = pooled
    return maps


def cross_validated_ece(scored: Sequence[Scored], scope: Scope) -> float | None:
    """ECE (10 equal-width bins; Guo et al. 2017, Eq. 3) of the maps of `scope`, each fold's
    steps mapped by maps fit on the other folds' steps, averaged over the groups of grades with
    at least `MIN_STEPS` labelled steps (the answer right, wrong, unknown; proof; open-ended),
    each group alike: how calibrated the scope keeps steps it was not fit on, whatever the mix
    of groups. None when no fold gets a map."""
    by: dict[str, list[tuple[float, bool]]] = {}
    for k in sorted({s.fold for s in scored}):
        maps = maps_of([s for s in scored if s.fold != k], scope)
        for s in scored:
            if s.fold == k:
                platt = next((maps[key] for key in (*s.keys(scope), ANY_TYPE) if key in maps), None)
                if platt is not None:
                    by.setdefault(s.group, []).append((sigmoid(platt(s.log_odds)), s.wrong))
    groups = [pairs for pairs in by.values() if len(pairs) >= MIN_STEPS] or list(by.values())
    return sum(reliability(p)[0] for p in groups) / len(groups) if groups else None


def fit_recalibration(
    observed: Sequence[Observed],
    features: Sequence[str],
    targets: Sequence[Observed] | None = None,
    decisive: frozenset[FindingKind] = frozenset(),
) -> tuple[dict[str, Platt], dict[Scope, float | None]]:
    """The language's maps, fitted on the steps of `targets` (the steps the step ECE is
    measured on: StepMathBench's human segmentation, where the model is fit on the grader's
    own) or of `observed`, and the cross-validated ECE of each scope.

    The scope, one map per problem type or the language's one map for all, is the one whose
    maps keep the steps of a held-out fold better calibrated (`cross_validated_ece`, inside the
    fit half): a type's own map fits its type's shift, but on a few hundred steps of few
    problems it also fits their noise, which a map pooled over types shrinks away."""
    scored = out_of_fold(observed, features, targets, decisive)
    cv = {scope: cross_validated_ece(scored, scope) for scope in SCOPES}
    known = [scope for scope in SCOPES if cv[scope] is not None]
    scope = min(known, key=lambda name: cv[name] or 0.0) if known else "per_type"
    return maps_of(scored, scope), cv
