"""Recalibration from teachers' corrections (docs/architecture.md 4.10, 4.11):
the `stepgrade calibrate` command.

Reads the corrected grades (`eval_sets.calibrate.correction_rows`), measures on the held-back
fifth a refit (`eval_sets.calibrate.correction_refit`) on the others, then refits on all of them
and writes a new calibration. The weight of a corrected step is chosen by cross-validation on
the corrections that are not held back (`choose_weight`), on the mean absolute error of the
score, or given.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, get_args

from eval_sets.calibrate.correction_refit import Regraded, refit_models, refit_uncertainty, regrade
from eval_sets.calibrate.correction_rows import (
    CV_FOLDS,
    Corrected,
    CorrectionsError,
    fold,
    held_back,
    read_source,
)
from eval_sets.calibrate.corrections_args import DEFAULT_WEIGHT, add_arguments
from eval_sets.calibrate.uncertainty import with_uncertainty
from eval_sets.metrics.bootstrap import LEVEL, Change, paired_change
from eval_sets.metrics.risk import corr_mae
from scoring.judge import (
    DEFAULT_PATH,
    Calibration,
    CalibrationError,
    GradeGroup,
    grade_group,
    load_calibration,
)

# What a corrected step counts for, in shipped steps: the candidates cross-validation picks from.
WEIGHTS: tuple[float, ...] = (0.0, 1.0, 4.0, 16.0, 64.0)


# ------------------------------------------------------------------------------- agreement


@dataclass(frozen=True)
class Agreement:
    """Agreement with the teachers: MAE and Pearson Corr (x100) of the score, and the share of
    steps whose label (wrong or not) the teacher kept."""

    grades: int
    mae: float
    corr: float
    steps: float


def agreement(regraded: Sequence[Regraded]) -> Agreement:
    """How far the regraded solutions are from the teachers' scores and labels."""
    pairs = [(float(r.score), float(r.corrected.human_score())) for r in regraded]
    corr, mae = corr_mae(pairs) if pairs else (math.nan, math.nan)
    same = [
        (a == "incorrect") == (b == "incorrect")
        for r in regraded
        for a, b in zip(r.labels, r.corrected.labels, strict=False)
    ]
    return Agreement(len(pairs), mae, corr, sum(same) / len(same) if same else math.nan)


def mae_of(calibration: Calibration, corrected: Sequence[Corrected]) -> float:
    """Mean absolute error of the regraded score against the teachers'."""
    return agreement(regrade(calibration, corrected)).mae


# --------------------------------------------------------------------- choosing the weight


def choose_weight(
    calibration: Calibration, corrected: Sequence[Corrected], weights: Sequence[float] = WEIGHTS
) -> tuple[float, dict[float, float]]:
    """The weight whose refit scores the held-out folds best: `CV_FOLDS`-fold cross-validation
    by problem over `corrected` (the corrections not held back), on the mean absolute error of
    the score; the smaller weight on a tie (0: the shipped model, when nothing helps)."""
    folds = [[c for c in corrected if fold(c.problem) == k] for k in range(CV_FOLDS)]
    errors: dict[float, float] = {}
    for w in weights:
        total = n = 0.0
        for k, test in enumerate(folds):
            if not test:
                continue
            train = [c for j, f in enumerate(folds) if j != k for c in f]
            refitted = refit_models(calibration, train, w)
            total += mae_of(refitted, test) * len(test)
            n += len(test)
        errors[w] = round(total / n, 4) if n else math.nan
    best = min(weights, key=lambda w: (errors[w], w))
    return best, errors


# ---------------------------------------------------------------------------- the whole fit


@dataclass(frozen=True)
class Recalibrated:
    """The new calibration and what the fit measured."""

    calibration: Calibration
    weight: float
    cv: dict[float, float]  # the weight -> cross-validated MAE
    fitted: int  # corrected grades the measured refit was fitted on
    held: int  # corrected grades held back to measure it
    before: Agreement  # on the held-back fifth (in sample: every grade), shipped calibration
    after: Agreement  # on the held-back fifth (in sample: every grade), new calibration
    in_sample: bool = False  # no fifth could be held back: measured on the grades fitted on
    # the MAE's change on the held-back fifth with its interval over its problems (None: in
    # sample, or the fifth holds one problem)
    mae_change: Change | None = None
    # per group of grades (answer right, answer wrong, proof, ...): grades, MAE before, after
    by_group: dict[str, tuple[int, float, float]] = field(default_factory=dict)


def recalibrate(
    calibration: Calibration,
    corrected: Sequence[Corrected],
    weight: float | None = None,
    progress: Callable[[str], None] = lambda _: None,
) -> Recalibrated:
    """Measure on the held-back fifth a refit on the other corrections (the weight chosen on
    them with `weight` None), then refit on all of them; the file's other sections are kept and
    a new version named.

    `weight` None: cross-validated on the corrections not held back (`choose_weight`; the
    default weight when they span fewer than two folds).

    When the fifth held back (by problem) is empty, or is every correction, nothing can be
    measured out of sample: the refit is then measured on the grades it was fitted on, and
    `in_sample` says so. `progress` hears each phase as it starts."""
    held = [c for c in corrected if held_back(c.problem)]
    fit = [c for c in corrected if not held_back(c.problem)]
    in_sample = not held or not fit
    if in_sample:
        held = fit = list(corrected)
    cv: dict[float, float] = {}
    if weight is None:
        if len({fold(c.problem) for c in fit}) >= 2:
            progress(f"choosing the weight by cross-validation on {len(fit)} corrected grades")
            weight, cv = choose_weight(calibration, fit)
        else:
            weight = DEFAULT_WEIGHT
    progress(f"refitting on {len(fit)} corrected grades and regrading {len(held)}")
    old, now = regrade(calibration, held), regrade(_refit(calibration, fit, weight), held)
    before, after = agreement(old), agreement(now)
    errors = [
        (
            b.corrected,
            abs(b.score - b.corrected.human_score()),
            abs(a.score - a.corrected.human_score()),
        )
        for b, a in zip(old, now, strict=True)
    ]
    change = None if in_sample else paired_change([(c.problem, e0, e1) for c, e0, e1 in errors])
    by_group = {
        group: (len(rows), sum(r[1] for r in rows) / len(rows), sum(r[2] for r in rows) / len(rows))
        for group in get_args(GradeGroup)
        if (rows := [r for r in errors if grade_group(r[0].observed.inp) == group])
    }
    # Measured on the fifth held back, then fitted on every correction.
    if not in_sample:
        progress(f"refitting on all {len(corrected)} corrected grades")
    new = _refit(calibration, corrected, weight)
    # What the file was checked on travels with it: the measured agreement, as printed.
    measured: dict[str, Any] = {
        "on": "in sample (too few problems to hold a fifth back)"
        if in_sample
        else "the held-back fifth, by problem",
        "grades": len(held),
        "mae_before": _rounded(before.mae),
        "mae_after": _rounded(after.mae),
        "by_group": {
            g: {"grades": n, "mae_before": round(b, 3), "mae_after": round(a, 3)}
            for g, (n, b, a) in by_group.items()
        },
    }
    if change is not None:
        measured["mae_change_interval"] = {
            "level": LEVEL,
            "low": round(change.low, 3),
            "high": round(change.high, 3),
            "problems": change.clusters,
        }
    meta = {
        **calibration.meta,
        "corrections": {
            "from": calibration.version,
            "grades": len(corrected),
            "weight": weight,
            "prior": "shipped weights, precision = shipped steps x mean p(1-p)",
            "measured": measured,
        },
    }
    new = replace(new, meta=meta)
    return Recalibrated(
        new, weight, cv, len(fit), len(held), before, after, in_sample, change, by_group
    )


def _refit(calibration: Calibration, corrected: Sequence[Corrected], weight: float) -> Calibration:
    """The step models, then the interval statistics on grades of the refitted models; a new
    version."""
    refitted = refit_models(calibration, corrected, weight)
    interval = refit_uncertainty(refitted, corrected, weight)
    if interval is not None:
        return with_uncertainty(refitted, interval)
    return with_uncertainty_free(refitted)


def with_uncertainty_free(calibration: Calibration) -> Calibration:
    """A new version for a calibration without interval statistics (digest of its models)."""
    body = {"models": calibration.to_json()["models"], "kinds": calibration.to_json()["kinds"]}
    digest = hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]
    return replace(calibration, version=f"{calibration.version.split('-')[0]}-{digest}")


def to_text(calibration: Calibration) -> str:
    """The calibration file's text (as `python -m eval_sets.calibrate` writes it)."""
    data: dict[str, Any] = calibration.to_json()
    return json.dumps(data, indent=1, sort_keys=True) + "\n"


# ------------------------------------------------------------------------------ the command


def run(args: argparse.Namespace) -> int:
    """Read, refit, report on the held-back fifth, write; exit 2 with a message on bad input."""
    try:
        weight = None if args.weight == "cv" else float(args.weight)
        if weight is not None and not (math.isfinite(weight) and weight >= 0):
            raise ValueError
    except ValueError:
        print(
            f"calibrate: --weight must be a number >= 0 or 'cv', got {args.weight!r}",
            file=sys.stderr,
        )
        return 2
    start = args.calibration or os.environ.get("STEPGRADE_CALIBRATION") or DEFAULT_PATH
    try:
        calibration = load_calibration(Path(start))
        corrected = read_source(args.corrections, args.api_key, args.timeout)
    except (CorrectionsError, CalibrationError) as err:
        print(f"calibrate: {err}", file=sys.stderr)
        return 2
    print(
        f"calibrate: read {len(corrected)} corrected grades (their checks rerun)",
        file=sys.stderr,
        flush=True,
    )
    result = recalibrate(
        calibration,
        corrected,
        weight,
        lambda phase: print(f"calibrate: {phase}", file=sys.stderr, flush=True),
    )
    if result.in_sample:
        print(
            f"corrections: {len(corrected)} grades, too few problems to hold a fifth back "
            f"(it is chosen by problem), so the agreement below is in sample, on the grades "
            f"fitted on; weight {result.weight:g}"
        )
        print("agreement in sample (MAE and Corr of the score, step agreement):")
    else:
        print(
            f"corrections: {len(corrected)} grades; measured fitting on {result.fitted} and "
            f"holding back {result.held}, then fitted on all; weight {result.weight:g}"
            + (f" (cross-validated MAE by weight: {result.cv})" if result.cv else "")
        )
        print("agreement on the held-back fifth (MAE and Corr of the score, step agreement):")
    for name, a in (("before", result.before), ("after", result.after)):
        print(
            f"  {name:6s} {calibration.version if name == 'before' else result.calibration.version}"
            f": grades {a.grades}, MAE {_figure(a.mae, '.3f')}, Corr {_figure(a.corr, '.1f')}, "
            f"steps {_figure(100 * a.steps, '.1f')}%"
        )
    print(
        "  MAE by group, before -> after: "
        + "; ".join(
            f"{group.replace('_', ' ')} ({n}) {b:.2f} -> {a:.2f}"
            for group, (n, b, a) in result.by_group.items()
        )
    )
    if result.mae_change is not None:
        c = result.mae_change
        print(
            f"  MAE after - before: {c.change:+.3f}, {100 * LEVEL:.0f}% interval {c.low:+.3f} to "
            f"{c.high:+.3f} (the held-back grades' {c.clusters} problems resampled; an "
            f"interval across 0 is no evidence either way)"
        )
    try:
        args.out.write_text(to_text(result.calibration), encoding="utf-8")
    except OSError as err:
        print(f"calibrate: cannot write {args.out}: {err.strerror or err}", file=sys.stderr)
        return 2
    print(
        f"wrote {args.out} (version {result.calibration.version}); serve it with "
        f"STEPGRADE_CALIBRATION={args.out}"
    )
    return 0


def _rounded(value: float) -> float | None:
    """A figure for the file's JSON: an undefined one (nan) as null."""
    return None if math.isnan(value) else round(value, 3)


def _figure(value: float, spec: str) -> str:
    """A figure as printed; an undefined one (Corr of fewer than two grades, or of a constant
    score) as a dash, not nan."""
    return "–" if math.isnan(value) else format(value, spec)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m eval_sets.calibrate.corrections`: the same command as `stepgrade calibrate`."""
    parser = argparse.ArgumentParser(
        prog="python -m eval_sets.calibrate.corrections",
        description="Recalibrate from teachers' corrections.",
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
