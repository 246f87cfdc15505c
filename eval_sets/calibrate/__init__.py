"""Calibration of the offline judge's evidence model on labelled step data (docs/architecture.md 4.10).

    python -m eval_sets.calibrate --data ../shared/data [--out scoring/judge/calibration.json]

Reads the labelled development sets, runs every check on the human-segmented steps, measures each
finding kind's precision and likelihood ratio, fits the prior and the log-odds weights on the fit
half, reports both halves and writes the calibration file (statistics only, no rows).
"""
