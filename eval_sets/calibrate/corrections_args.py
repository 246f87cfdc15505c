"""The options of `stepgrade calibrate`, apart from the refit itself, so that building the
`stepgrade` parser (and `stepgrade --help`) imports no grader."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

# The default weight of a corrected grade, chosen on simulated deployments over the FIT half of
# StepMathBench dev (docs/review.md); `--weight cv` cross-validates it on the corrections instead.
DEFAULT_WEIGHT = 64.0
HTTP_TIMEOUT = 30.0  # seconds per HTTP call


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of `stepgrade calibrate` (and `python -m eval_sets.calibrate.corrections`)."""
    parser.add_argument(
        "--corrections",
        required=True,
        metavar="URL_OR_FILE",
        help="a service's base URL (reads GET /grades/export?corrected=true) "
        "or a file of its JSON lines",
    )
    parser.add_argument("--out", required=True, type=Path, help="the calibration file to write")
    parser.add_argument(
        "--api-key",
        default=os.environ.get("STEPGRADE_API_KEY"),
        help="the key whose corrections to read (default STEPGRADE_API_KEY)",
    )
    parser.add_argument(
        "--calibration",
        type=Path,
        default=None,
        help="the calibration to start from (default STEPGRADE_CALIBRATION, else the shipped one)",
    )
    parser.add_argument(
        "--weight",
        default=str(DEFAULT_WEIGHT),
        help="what a corrected step counts for against the shipped fit, or "
        f"'cv' to cross-validate it (default {DEFAULT_WEIGHT:g})",
    )
    parser.add_argument("--timeout", type=float, default=HTTP_TIMEOUT, help="seconds per HTTP call")
