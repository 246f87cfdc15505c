"""`python -m eval_sets.calibrate --data ../shared/data [--out FILE] [--check-only] [--cache FILE]`

Measures every finding kind on the labelled development sets, fits the step models and their
recalibration on the fit half, then the score-interval statistics on grades made with that step
model (`eval_sets.calibrate.uncertainty`), prints the tables for both halves and writes the one
calibration file the judge and the grader load (`scoring/judge/calibration.json` by default).
Top-level sections of an existing file that this command does not fit (a model's measured
reliability) are kept. `--check-only` reports the calibration in `--out` without fitting. Exit
status 2 on bad arguments or missing data.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import time
from collections import Counter
from dataclasses import asdict, replace
from pathlib import Path

from eval_sets.calibrate.difficulty import difficulty_agreement, fit_difficulty
from eval_sets.calibrate.evidence import Observed, observe, with_context
from eval_sets.calibrate.fit import (
    FEATURE_SETS,
    L2,
    LENIENCES,
    MIN_FIRES,
    MIN_PRECISION,
    fit_language,
    kind_stats,
    natural,
    verdict_prior,
)
from eval_sets.calibrate.labelled import labelled_sets
from eval_sets.calibrate.recalibrate import (
    FOLDS,
    MIN_CLASS,
    MIN_STEPS,
    SCOPES,
    fit_recalibration,
)
from eval_sets.calibrate.report import (
    agreement_tables,
    group_ece_tables,
    kinds_table,
    reliability_tables,
)
from eval_sets.calibrate.uncertainty import LLM_SEEDS, refit, with_uncertainty
from eval_sets.runner.bench import print_tables
from eval_sets.runner.tables import Cell, Table
from scoring.judge import (
    DEFAULT_PATH,
    OWN_KEYS,
    Calibration,
    CalibrationError,
    StepModel,
    load_calibration,
)
from scoring.score import SECTION

CALIBRATION_FORMAT = 1


def _observed(data: Path, cache: Path | None) -> list[Observed]:
    if cache is not None and cache.is_file():
        with cache.open("rb") as handle:
            return pickle.load(handle)
    observed = observe(labelled_sets(data))
    if cache is not None:
        with cache.open("wb") as handle:
            pickle.dump(observed, handle)
    return observed


def calibrate(observed: list[Observed]) -> tuple[Calibration, list[Table]]:
    """Fit each language's step model and its recalibration on the fit half: the calibration (no
    interval statistics yet) and the tables of what was chosen."""
    fit = natural(observed, "fit")
    stats = kind_stats(fit)
    models: dict[str, StepModel] = {}
    rows: list[tuple[Cell, ...]] = []
    recal_rows: list[tuple[Cell, ...]] = []
    decisive = frozenset(k for k, v in stats.items() if v.decisive)
    difficulty_rows: list[tuple[Cell, ...]] = []
    for language in sorted({o.solution.language for o in fit}):
        weights = fit_difficulty([o for o in fit if o.solution.language == language])
        mine = [with_context(o, weights) for o in fit if o.solution.language == language]
        chosen = fit_language(mine, language, stats)
        human = [
            with_context(o, weights)
            for o in observed
            if o.solution.set == "stepmath_human"
            and o.solution.half == "fit"
            and o.solution.language == language
        ]
        maps, cv = fit_recalibration(
            mine, FEATURE_SETS[chosen.feature_set], human or None, decisive
        )
        models[language] = replace(
            chosen.model, recalibration=maps, verdict_prior=verdict_prior(mine), difficulty=weights
        )
        recal_rows.extend(
            (language, kind, m.steps, m.slope, m.intercept, *cv.values())
            for kind, m in sorted(maps.items())
        )
        rows.append(
            (
                language,
                chosen.feature_set,
                *(chosen.cv[n] for n in FEATURE_SETS),
                chosen.model.threshold,
                chosen.decisions["threshold"],
                max(v for k, v in chosen.decisions.items() if k != "threshold"),
                chosen.model.decision,
                chosen.model.lenience,
            )
        )
        difficulty_rows.extend(
            (
                language,
                half,
                difficulty_agreement(
                    [
                        o
                        for o in observed
                        if o.solution.language == language
                        and o.solution.half == half
                        and o.solution.natural
                    ],
                    weights,
                ),
            )
            for half in ("fit", "check")
        )
    if "en" not in models:
        raise SystemExit("calibrate: no English labelled set found; the default model needs one")
    counts = Counter((o.solution.set, o.solution.half) for o in observed)
    body = {
        "models": {k: asdict(v) for k, v in models.items()},
        "kinds": {k: asdict(v) for k, v in stats.items()},
    }
    digest = hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]
    meta = {
        "format": CALIBRATION_FORMAT,
        "fitted": time.strftime("%Y-%m-%d"),
        "solutions": {f"{s}/{h}": n for (s, h), n in sorted(counts.items())},
        "fitted_on": "natural sets, fit half (split by a hash of the problem text)",
        "min_precision": MIN_PRECISION,
        "min_fires": MIN_FIRES,
        "l2": L2,
        "leniences": list(LENIENCES),
        "feature_sets": {n: list(f) for n, f in FEATURE_SETS.items()},
        "recalibration": f"Platt scaling per language, per problem type, per state or pooled "
        f"(the lowest ECE cross-validated over {FOLDS} folds of the fit half), on "
        f"out-of-fold log-odds (a type's or state's map: at least {MIN_STEPS} "
        f"steps, {MIN_CLASS} of each class; else the language's)",
    }
    calibration = Calibration(f"{CALIBRATION_FORMAT}-{digest}", models, stats, meta)
    table = Table(
        "models",
        "Step model per language: cross-validated objective per feature set "
        "(inside the fit half; higher is better), the chosen threshold, the offline "
        "decision rule's objective on the fit half (by threshold; closest to the "
        "expected score, best lenience) and the rule chosen",
        (
            "language",
            "chosen",
            *FEATURE_SETS,
            "threshold",
            "by threshold",
            "closest to expected",
            "decision",
            "lenience",
        ),
        tuple(rows),
        note="en: first-error F1; zh: minus the squared error of the expected Eq. 1 "
        "score (features), of Eq. 1 on the decided labels (threshold), minus the "
        "mean absolute error of Eq. 1 on the decided labels (decision).",
    )
    recal = Table(
        "recalibration",
        "Recalibration of the reported P(wrong) per language "
        "(Platt scaling on out-of-fold log-odds, fit half): sigmoid(slope * log-odds + "
        "intercept); maps per problem type, state, group or group and state, or one pooled, whichever has the "
        "lowest cross-validated ECE inside the fit half",
        (
            "language",
            "map",
            "steps",
            "slope",
            "intercept",
            *(f"cv ECE {scope.replace('_', ' ')}" for scope in SCOPES),
        ),
        tuple(recal_rows),
        note="map 'any': the language's, for a type or state without a map of its own; "
        "'state:fails' etc.: steps in one state (what the decisive checks "
        "established).",
    )
    levels = Table(
        "difficulty",
        "The offline difficulty estimate against the labelled levels "
        "(StepMathBench's level; ProcessBench's source: grade school 1, competition 2, "
        "olympiad 3): Spearman's rank correlation, per language and half",
        ("language", "half", "Spearman"),
        tuple(difficulty_rows),
    )
    return calibration, [t for t in (table, recal, levels) if t.rows]


def kept_sections(path: Path) -> dict[str, object]:
    """The sections of the calibration file at `path` that this command does not fit (a
    model's measured reliability, written by another command): kept when the file is rewritten."""
    try:
        written = load_calibration(path).to_json()
    except CalibrationError:
        return {}
    return {k: v for k, v in written.items() if k not in OWN_KEYS}


def main(argv: list[str] | None = None) -> int:
    """The command: fit and write the calibration, or with `--check-only` only report the one in
    `--out`; 2 on bad arguments or missing data."""
    parser = argparse.ArgumentParser(
        prog="python -m eval_sets.calibrate", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--data", type=Path, required=True, help="folder of the labelled sets")
    parser.add_argument("--out", type=Path, default=DEFAULT_PATH, help="calibration file to write")
    parser.add_argument(
        "--check-only",
        action="store_true",
        help="report the calibration in --out without fitting a new one",
    )
    parser.add_argument("--cache", type=Path, help="reuse (or write) the checks' findings here")
    parser.add_argument(
        "--llm-seeds",
        type=int,
        nargs="*",
        default=list(LLM_SEEDS),
        help="seeds of the label fake graded in LLM mode for the score "
        "interval's LLM-mode cells (none: offline cells only)",
    )
    args = parser.parse_args(argv)
    if not args.data.is_dir():
        print(f"calibrate: no such folder: {args.data}", file=sys.stderr)
        return 2
    observed = _observed(args.data, args.cache)
    if not observed:
        print(f"calibrate: no labelled sets found in {args.data}", file=sys.stderr)
        return 2
    if args.check_only:
        calibration = load_calibration(args.out)
        tables: list[Table] = []
    else:
        calibration, tables = calibrate(observed)
        kept = {k: v for k, v in kept_sections(args.out).items() if k != SECTION}
        calibration = replace(calibration, sections=kept)
    print_tables(
        [
            kinds_table(observed, calibration),
            *tables,
            *agreement_tables(observed, calibration),
            *reliability_tables(observed, calibration),
            *group_ece_tables(observed, calibration),
        ]
    )
    reports = args.cache.with_suffix(".reports.jsonl") if args.cache is not None else None
    try:
        model, uncertainty = refit(
            args.data, calibration, reports, check_only=args.check_only, llm_seeds=args.llm_seeds
        )
    except (FileNotFoundError, ValueError) as err:  # UncertaintyError is one
        print(f"calibrate: {err}", file=sys.stderr)
        return 2
    print_tables([t for t in uncertainty if t.rows])
    if not args.check_only:
        calibration = with_uncertainty(calibration, model)
        args.out.write_text(
            json.dumps(calibration.to_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
        print(f"\nwrote {args.out} (version {calibration.version})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
