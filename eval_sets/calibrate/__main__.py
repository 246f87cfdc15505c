"""`python -m eval_sets.calibrate --data ../shared/data [--out FILE] [--check-only]`

Measures every finding kind on the labelled development sets, fits the step models on the fit
half, prints the tables for both halves and writes the calibration file the judge loads
(`scoring/judge/calibration.json` by default). `--check-only` reports the shipped calibration
without fitting. Exit status 2 on bad arguments or missing data.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import sys
import time
from collections import Counter
from pathlib import Path

from eval_sets.calibrate.evidence import Observed, observe
from eval_sets.calibrate.fit import (
    FEATURE_SETS,
    L2,
    LENIENCES,
    MIN_FIRES,
    MIN_PRECISION,
    fit_language,
    kind_stats,
    natural,
)
from eval_sets.calibrate.labelled import labelled_sets
from eval_sets.calibrate.report import agreement_tables, kinds_table
from eval_sets.runner.bench import print_tables
from eval_sets.runner.tables import Table
from scoring.judge.calibration import DEFAULT_PATH, Calibration, load_calibration

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


def calibrate(observed: list[Observed]) -> tuple[Calibration, Table]:
    fit = natural(observed, "fit")
    stats = kind_stats(fit)
    models, rows = {}, []
    for language in sorted({o.solution.language for o in fit}):
        chosen = fit_language([o for o in fit if o.solution.language == language], language, stats)
        models[language] = chosen.model
        rows.append((language, chosen.feature_set, *(chosen.cv[n] for n in FEATURE_SETS),
                     chosen.model.threshold, chosen.decisions["threshold"],
                     max(v for k, v in chosen.decisions.items() if k != "threshold"),
                     chosen.model.decision, chosen.model.lenience))
    if "en" not in models:
        raise SystemExit("calibrate: no English labelled set found; the default model needs one")
    counts = Counter((o.solution.set, o.solution.half) for o in observed)
    body = {"models": {k: vars(v) for k, v in models.items()},
            "kinds": {k: vars(v) for k, v in stats.items()}}
    digest = hashlib.sha1(json.dumps(body, sort_keys=True).encode()).hexdigest()[:10]
    meta = {
        "format": CALIBRATION_FORMAT,
        "fitted": time.strftime("%Y-%m-%d"),
        "solutions": {f"{s}/{h}": n for (s, h), n in sorted(counts.items())},
        "fitted_on": "natural sets, fit half (split by a hash of the problem text)",
        "min_precision": MIN_PRECISION, "min_fires": MIN_FIRES, "l2": L2,
        "leniences": list(LENIENCES),
        "feature_sets": {n: list(f) for n, f in FEATURE_SETS.items()},
    }
    calibration = Calibration(f"{CALIBRATION_FORMAT}-{digest}", models, stats, meta)
    table = Table("models", "Step model per language: cross-validated objective per feature set "
                  "(inside the fit half; higher is better), the chosen threshold, the offline "
                  "decision rule's objective on the fit half (by threshold; closest to the "
                  "expected score, best lenience) and the rule chosen",
                  ("language", "chosen", *FEATURE_SETS, "threshold", "by threshold",
                   "closest to expected", "decision", "lenience"), tuple(rows),
                  note="en: first-error F1; zh: minus the squared error of the expected Eq. 1 "
                       "score (features), of Eq. 1 on the decided labels (threshold), minus the "
                       "mean absolute error of Eq. 1 on the decided labels (decision).")
    return calibration, table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m eval_sets.calibrate",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="folder of the labelled sets")
    parser.add_argument("--out", type=Path, default=DEFAULT_PATH, help="calibration file to write")
    parser.add_argument("--check-only", action="store_true",
                        help="report the calibration in --out without fitting a new one")
    parser.add_argument("--cache", type=Path, help="reuse (or write) the checks' findings here")
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
        tables = []
    else:
        calibration, models = calibrate(observed)
        tables = [models]
    print_tables([kinds_table(observed, calibration), *tables,
                  *agreement_tables(observed, calibration)])
    if not args.check_only:
        args.out.write_text(json.dumps(calibration.to_json(), indent=1, sort_keys=True) + "\n",
                            encoding="utf-8")
        print(f"\nwrote {args.out} (version {calibration.version})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
