"""A simulated deployment of the review loop: does recalibrating on corrections lower the MAE?

    stepgrade study deployment_sim --data ../shared/data [--splits 5] [--half check]

On one half of StepMathBench dev, graded
offline on the human segmentation (`solution_steps`) with the reference answers, as
`eval_sets.calibrate.uncertainty` grades it:

1. the problems are split into groups A and B by a hash of the problem text and a seed;
2. A is graded through a running service (`stepgrade serve`, a temporary SQLite store);
3. the 100 most uncertain grades of the review queue (`GET /grades?needs_review=true&
   order=uncertainty`, then `needs_review=false`) are corrected with the human labels and score;
4. `stepgrade calibrate --corrections http://...` writes a new calibration; the service restarts
   with it (`STEPGRADE_CALIBRATION`) and grades B; so does a service on the shipped calibration.

Prints MAE and Corr on B, shipped against recalibrated, per split. Exit status 2 on missing data.

The deployment benchmark of problem memory is a study of its own (`eval_sets.studies.memory_sim`).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import httpx

from eval_sets.deployment_items import Item, group, load_items
from eval_sets.metrics.bootstrap import LEVEL, paired_change
from eval_sets.metrics.risk import corr_mae
from eval_sets.plugins import register_study
from eval_sets.processes import free_port, start_service, stop, wait_ready
from eval_sets.study_cli import (
    add_data,
    add_half,
    add_splits,
    positive_int,
    require_file,
    run_study,
)

CORRECTIONS = 100
TIMEOUT = 60.0


@contextmanager
def service(store: Path, calibration: Path | None) -> Iterator[str]:
    """`stepgrade serve` on a free port with an SQLite store in `store`; yields its URL."""
    port = free_port()
    settings = {"STEPGRADE_DATA_DIR": str(store), "STEPGRADE_PRELOAD_EMBEDDING": "false"}
    if calibration is not None:
        settings["STEPGRADE_CALIBRATION"] = str(calibration)
    process = start_service(
        None,
        port,
        env=settings,
        stdout=subprocess.DEVNULL,
        drop=("STEPGRADE_DATABASE_URL", "STEPGRADE_API_KEYS", "STEPGRADE_CALIBRATION"),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(f"{url}/readyz", process)
        yield url
    finally:
        stop(process)


def grade(client: httpx.Client, url: str, items: Sequence[Item]) -> list[dict[str, Any]]:
    """Every item through POST /grade; the reports, in order."""
    reports = []
    for item in items:
        response = client.post(f"{url}/grade", json=item.request)
        response.raise_for_status()
        reports.append(response.json())
    return reports


def review_queue(client: httpx.Client, url: str, n: int) -> list[str]:
    """The ids of the `n` most uncertain grades: those needing review first, then the others."""
    ids: list[str] = []
    for needs in ("true", "false"):
        cursor = None
        while len(ids) < n:
            params = {"needs_review": needs, "order": "uncertainty", "limit": "100"}
            if cursor:
                params["cursor"] = cursor
            page = client.get(f"{url}/grades", params=params).json()
            ids += [row["id"] for row in page["items"]][: n - len(ids)]
            cursor = page.get("next_cursor")
            if not cursor:
                break
    return ids


def calibrate_command() -> list[str]:
    """`stepgrade calibrate` when the installed package registers it, else the same code."""
    if any(p.name == "calibrate" for p in entry_points(group="stepgrade.commands")):
        return [sys.executable, "-m", "server.cli", "calibrate"]
    return [sys.executable, "-m", "eval_sets.calibrate.corrections"]


def metrics(reports: Sequence[dict[str, Any]], items: Sequence[Item]) -> tuple[float, float]:
    """(MAE, Corr x100) of the reports' scores against the human scores."""
    corr, mae = corr_mae(
        [(float(r["score"]), float(i.score)) for r, i in zip(reports, items, strict=True)]
    )
    return mae, corr


def split(
    items: Sequence[Item],
    seed: int,
    work: Path,
    weight: str | None = None,
    corrections: int = CORRECTIONS,
) -> dict[str, Any]:
    """One simulated deployment; the figures on B, shipped and recalibrated (`weight`: the
    corrections' weight passed to `stepgrade calibrate`, None for its default; `corrections`:
    how many grades of the queue the teacher corrects)."""
    import subprocess

    a = [i for i in items if group(i.problem, seed) == "A"]
    b = [i for i in items if group(i.problem, seed) == "B"]
    out = work / f"calibration-{seed}.json"
    with httpx.Client(timeout=TIMEOUT) as client:
        with service(work / f"store-{seed}", None) as url:
            reports = grade(client, url, a)
            by_id = {r["meta"]["grade_id"]: i for r, i in zip(reports, a, strict=True)}
            queued = review_queue(client, url, corrections)
            for grade_id in queued:
                item = by_id[grade_id]
                client.post(
                    f"{url}/grades/{grade_id}/corrections",
                    json={
                        "step_labels": item.labels,
                        "score": item.score,
                        "reviewer": "simulation",
                    },
                ).raise_for_status()
            shipped = grade(client, url, b)
            chosen = ["--weight", weight] if weight else []
            run = subprocess.run(
                [*calibrate_command(), "--corrections", url, "--out", str(out), *chosen],
                check=False,
                capture_output=True,
                text=True,
                timeout=1800,
            )
            if run.returncode != 0:
                raise RuntimeError(f"calibrate failed: {run.stderr.strip()}")
        with service(work / f"store-{seed}-new", out) as url:
            new = grade(client, url, b)
    version = new[0]["meta"]["versions"].get("calibration", "") if new else ""
    before, after = metrics(shipped, b), metrics(new, b)
    change = paired_change(
        [
            (i.problem, abs(float(s["score"]) - i.score), abs(float(n["score"]) - i.score))
            for s, n, i in zip(shipped, new, b, strict=True)
        ]
    )
    interval = (
        ""
        if change is None or not before[0]
        else f"{100 * change.low / before[0]:+.1f}% to {100 * change.high / before[0]:+.1f}%"
    )
    return {
        "seed": seed,
        "interval": interval,
        "a": len(a),
        "b": len(b),
        "corrected": len(queued),
        "needs_review": sum(bool(r.get("needs_review")) for r in reports),
        "mae": before[0],
        "corr": before[1],
        "mae_new": after[0],
        "corr_new": after[1],
        "version": version,
        "log": run.stdout.strip(),
    }


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    add_data(parser, "folder with stepmathbench_dev.jsonl", required=True)
    add_splits(parser)
    add_half(parser, "check", both=False, help="the half simulated (develop on fit; report check)")
    parser.add_argument("--verbose", action="store_true", help="print calibrate's output")
    parser.add_argument(
        "--weight",
        help="the corrections' weight for stepgrade calibrate (a "
        "number or cv; default: the command's own)",
    )
    parser.add_argument(
        "--corrections",
        type=positive_int,
        default=CORRECTIONS,
        help=f"grades of the queue corrected (default {CORRECTIONS}, the issue's)",
    )


@register_study("deployment_sim", arguments=add_arguments)
def deployment_sim(args: argparse.Namespace) -> int:
    """Run `--splits` simulated deployments on one half and print each and their mean; 2 when the
    data is missing."""
    path = require_file(args.data / "stepmathbench_dev.jsonl")
    items = load_items(path, args.half)
    print(
        f"| half | split | A | B | A needs review | corrected | MAE shipped | MAE new | change "
        f"| {100 * LEVEL:.0f}% interval (B's problems resampled) | Corr shipped | Corr new |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    rows = []
    with tempfile.TemporaryDirectory(prefix="stepgrade-sim-") as tmp:
        for seed in range(args.splits):
            r = split(items, seed, Path(tmp), args.weight, args.corrections)
            rows.append(r)
            if args.verbose:
                print(r["log"], file=sys.stderr)
            print(
                f"| {args.half} | {seed} | {r['a']} | {r['b']} | {r['needs_review']} | "
                f"{r['corrected']} | {r['mae']:.3f} | {r['mae_new']:.3f} | "
                f"{100 * (r['mae_new'] / r['mae'] - 1):+.1f}% | {r['interval']} | {r['corr']:.1f} | "
                f"{r['corr_new']:.1f} |",
                flush=True,
            )
    mae = sum(r["mae"] for r in rows) / len(rows)
    mae_new = sum(r["mae_new"] for r in rows) / len(rows)
    corr = sum(r["corr"] for r in rows) / len(rows)
    corr_new = sum(r["corr_new"] for r in rows) / len(rows)
    print(
        f"| {args.half} | mean | | | | | {mae:.3f} | {mae_new:.3f} | "
        f"{100 * (mae_new / mae - 1):+.1f}% | | {corr:.1f} | {corr_new:.1f} |"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m eval_sets.studies.deployment_sim`: the study over this process's arguments."""
    return run_study("deployment_sim", argv)


if __name__ == "__main__":
    sys.exit(main())
