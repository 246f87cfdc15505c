"""The deployment benchmark of problem memory: do a few corrections improve the next grades?

    stepgrade study memory_sim --data ../shared/data [--half check] [--k 1 2]

The deployment benchmark of problem memory (docs/memory.md): a class hands in solutions of the
same homework problems, a teacher corrects a few, the next solutions are graded against what the
corrections taught. On one half of StepMathBench dev (human segmentation, offline, five
solutions per problem), for k = 1 and 2, each through the API of a fresh service (TestClient, a
temporary SQLite store):

1. every solution is graded (`POST /grade`): the grades without memory;
2. k times, the review queue (`GET /grades?order=teach`) names for each problem the grade whose
   correction would teach the most, and it is corrected with its human labels and score
   (`POST /grades/{id}/corrections`);
3. the other solutions of each problem are graded again (`POST /grade`): with memory.

Reported on the other solutions: MAE and Corr of the score against the human score, and the
first-error agreement (the grade's most likely first error, `likely_first_error`, is the humans'
first step labelled incorrect or meaningless, or both have none), without and with memory, overall and per group (problem type;
for calculations, the answer verdict of the grade without memory), with 90% intervals that
resample the problems (paired cluster bootstrap, `eval_sets.metrics.bootstrap`). Beside them,
the refit-only figure: the same corrections exported (`GET /grades/export`) and given to the
calibration refit (`stepgrade calibrate`'s `recalibrate`), the other solutions graded with the
refitted calibration and no memory.

`--no-reference` sends the requests without their reference answer, as an app that only has the
problem and the student's solution would; with it, the accepted answer in memory is the
reference. Exit status 2 on missing data.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from eval_sets.calibrate.correction_rows import read_lines
from eval_sets.calibrate.corrections import recalibrate
from eval_sets.calibrate.corrections_args import DEFAULT_WEIGHT
from eval_sets.deployment_items import Item, load_items
from eval_sets.halves import HALVES
from eval_sets.metrics.bootstrap import LEVEL, cluster_interval
from eval_sets.metrics.risk import corr_mae
from eval_sets.plugins import register_study
from eval_sets.study_cli import (
    StudyInputError,
    add_data,
    add_half,
    require_file,
    run_study,
)
from scoring.judge import DEFAULT_PATH, Calibration, load_calibration, problem_key
from scoring.schema import GradeRequest

KS = (1, 2)
ZERO_LABELS = frozenset({"incorrect", "meaningless"})


@dataclass(frozen=True)
class Outcome:
    """One solution that was not corrected, graded without and with memory (and after the
    refit alone), with its human labels and score."""

    problem: str
    group: str
    human: int
    labels: tuple[str, ...]
    before: dict[str, Any]
    after: dict[str, Any]
    refit: dict[str, Any] | None = None


def first_zero(labels: Sequence[str]) -> int | None:
    """The first step (0-based) labelled incorrect or meaningless, or None."""
    return next((i for i, lab in enumerate(labels) if lab in ZERO_LABELS), None)


def graded_first_error(report: dict[str, Any]) -> int | None:
    """The grade's first error (0-based): its most likely first error where the report gives
    one (`likely_first_error`, the field for tasks that ask for one), else its first step
    labelled incorrect or meaningless."""
    guess = report.get("likely_first_error")
    if isinstance(guess, dict):
        step = guess.get("step")
        return None if step is None else int(step) - 1
    return first_zero([s["label"] for s in report["steps"]])


def group_of(item: Item, report: dict[str, Any]) -> str:
    """The item's group: its problem type, and for a calculation the answer verdict of its
    grade without memory."""
    kind = str(item.request.get("problem_type") or report.get("problem_type"))
    if kind != "calculation":
        return kind
    correct = (report.get("answer") or {}).get("correct")
    if correct is None:
        return "answer unchecked"
    return "answer right" if correct else "answer wrong"


@contextmanager
def api(work: Path, calibration: Path | None) -> Iterator[TestClient]:
    """The service on a fresh SQLite store under `work`, in process."""
    from server.core.settings import Settings
    from server.main import create_app

    settings = Settings(
        data_dir=work,
        preload_embedding=False,
        log_json=False,
        calibration=calibration,
        _env_file=None,
    )  # type: ignore[call-arg]
    with TestClient(create_app(settings)) as client:
        yield client


def _grade(client: TestClient, request: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/grade", json=request)
    response.raise_for_status()
    return dict(response.json())


def teach_queue(client: TestClient, problems: int) -> list[dict[str, Any]]:
    """The review queue in `teach` order (one page, enough for every problem's first grade)."""
    page = client.get("/grades", params={"order": "teach", "limit": str(min(200, 5 * problems))})
    page.raise_for_status()
    return list(page.json()["items"])


def simulate(
    items: Sequence[Item], k: int, work: Path, calibration: Path | None, refit: bool
) -> list[Outcome]:
    """One deployment with k corrections per problem (see the module docstring)."""
    by_problem: dict[str, list[int]] = defaultdict(list)
    for i, item in enumerate(items):
        by_problem[problem_key(item.problem)].append(i)
    with api(work, calibration) as client:
        first = [_grade(client, item.request) for item in items]
        index = {r["meta"]["grade_id"]: i for i, r in enumerate(first)}
        corrected: set[int] = set()
        for _ in range(k):
            taken: set[str] = set()
            for row in teach_queue(client, len(by_problem)):
                found = index.get(row["id"])
                if found is None or found in corrected:
                    continue
                i = found
                key = problem_key(items[i].problem)
                if key in taken:
                    continue
                taken.add(key)
                corrected.add(i)
                client.post(
                    f"/grades/{row['id']}/corrections",
                    json={
                        "step_labels": items[i].labels,
                        "score": items[i].score,
                        "reviewer": "simulation",
                    },
                ).raise_for_status()
        others = [i for i in range(len(items)) if i not in corrected]
        after = {i: _grade(client, items[i].request) for i in others}
        export = client.get("/grades/export").text.splitlines()
    refitted = _refit_grades(items, others, export, calibration) if refit else {}
    return [
        Outcome(
            items[i].problem,
            group_of(items[i], first[i]),
            items[i].score,
            tuple(items[i].labels),
            first[i],
            after[i],
            refitted.get(i),
        )
        for i in others
    ]


def _refit_grades(
    items: Sequence[Item], others: Sequence[int], export: Sequence[str], calibration: Path | None
) -> dict[int, dict[str, Any]]:
    """The other solutions graded with the calibration refitted on the corrections, no memory."""
    from agent.context import Context
    from agent.grader import Grader
    from scoring.judge import JudgeConfig

    start = load_calibration(calibration or DEFAULT_PATH)
    refitted: Calibration = recalibrate(start, read_lines(export), DEFAULT_WEIGHT).calibration
    grader = Grader(Context(judge=JudgeConfig(calibration=refitted), embedder=None))
    return {
        i: grader.grade(GradeRequest(**{**items[i].request, "memory": False})).model_dump(
            mode="json"
        )
        for i in others
    }


# ----------------------------------------------------------------------------- the figures


def _pairs(rows: Sequence[Outcome], side: str) -> list[tuple[float, float]]:
    return [
        (float(getattr(o, side)["score"]), float(o.human))
        for o in rows
        if getattr(o, side) is not None
    ]


def first_error_agreement(rows: Sequence[Outcome], side: str) -> float:
    """The share of grades whose first error (`graded_first_error`) is the humans' first step
    labelled incorrect or meaningless (both none counts as agreeing)."""
    graded = [o for o in rows if getattr(o, side) is not None]
    if not graded:
        return math.nan
    hits = sum(graded_first_error(getattr(o, side)) == first_zero(o.labels) for o in graded)
    return 100.0 * hits / len(graded)


@dataclass(frozen=True)
class Figures:
    """Without memory, with memory and refit only: Corr, MAE, first-error agreement; and the
    90% intervals of the changes with memory (problems resampled)."""

    n: int
    problems: int
    corr: tuple[float, float, float]
    mae: tuple[float, float, float]
    first_error: tuple[float, float, float]
    corr_change: tuple[float, float] | None
    mae_change: tuple[float, float] | None


def figures(rows: Sequence[Outcome]) -> Figures:
    """The figures of a set of outcomes (see `Figures`)."""
    sides = ("before", "after", "refit")
    cm = [corr_mae(_pairs(rows, s)) for s in sides]
    clustered = [(o.problem, o) for o in rows]

    def corr_gain(sample: Sequence[Outcome]) -> float:
        return corr_mae(_pairs(sample, "after"))[0] - corr_mae(_pairs(sample, "before"))[0]

    def mae_ratio(sample: Sequence[Outcome]) -> float:
        before = corr_mae(_pairs(sample, "before"))[1]
        return 100.0 * (corr_mae(_pairs(sample, "after"))[1] / before - 1) if before else math.nan

    corr_i = cluster_interval(clustered, corr_gain)
    mae_i = cluster_interval(clustered, mae_ratio)
    return Figures(
        len(rows),
        len({o.problem for o in rows}),
        (cm[0][0], cm[1][0], cm[2][0]),
        (cm[0][1], cm[1][1], cm[2][1]),
        tuple(first_error_agreement(rows, s) for s in sides),  # type: ignore[arg-type]
        None if corr_i is None else (corr_i.low, corr_i.high),
        None if mae_i is None else (mae_i.low, mae_i.high),
    )


def _f(value: float, spec: str = ".1f") -> str:
    return "–" if math.isnan(value) else format(value, spec)


def table_rows(half: str, k: int, rows: Sequence[Outcome]) -> list[str]:
    """Markdown lines: all the outcomes, then each group."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in rows:
        groups[o.group].append(o)
    lines = []
    for name, members in [("all", list(rows)), *sorted(groups.items())]:
        f = figures(members)
        mae_change = 100 * (f.mae[1] / f.mae[0] - 1) if f.mae[0] else math.nan
        mi = "" if f.mae_change is None else f"{f.mae_change[0]:+.0f}% to {f.mae_change[1]:+.0f}%"
        ci = "" if f.corr_change is None else f"{f.corr_change[0]:+.1f} to {f.corr_change[1]:+.1f}"
        lines.append(
            f"| {half} | {k} | {name} | {f.n} | {f.problems} | {_f(f.mae[0], '.2f')} | "
            f"{_f(f.mae[1], '.2f')} | {_f(mae_change, '+.0f')}% | {mi} | {_f(f.mae[2], '.2f')} | "
            f"{_f(f.corr[0])} | {_f(f.corr[1])} | {_f(f.corr[1] - f.corr[0], '+.1f')} | {ci} | "
            f"{_f(f.corr[2])} | {_f(f.first_error[0])} | {_f(f.first_error[1])} | "
            f"{_f(f.first_error[2])} |"
        )
    return lines


HEADER = (
    f"| half | k | group | graded | problems | MAE without | MAE with | change | "
    f"{100 * LEVEL:.0f}% interval | MAE refit only | Corr without | Corr with | change | "
    f"{100 * LEVEL:.0f}% interval | Corr refit only | first error without | with | "
    "refit only |\n"
    "|---|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|"
)


def run(
    data: Path,
    halves: Sequence[str],
    ks: Sequence[int],
    *,
    no_reference: bool,
    refit: bool,
    calibration: Path | None,
) -> list[tuple[str, int, list[Outcome]]]:
    """Every (half, k) deployment's outcomes; prints the table as it goes."""
    out = []
    print(HEADER, flush=True)
    for half in halves:
        items = load_items(data / "stepmathbench_dev.jsonl", half)
        if no_reference:
            items = [replace(i, request={**i.request, "reference_answer": None}) for i in items]
        for k in ks:
            with tempfile.TemporaryDirectory(prefix="stepgrade-memory-") as tmp:
                rows = simulate(items, k, Path(tmp), calibration, refit)
            out.append((half, k, rows))
            print("\n".join(table_rows(half, k, rows)), flush=True)
    return out


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    add_data(parser, "folder with stepmathbench_dev.jsonl", required=True)
    add_half(parser, "check", help="the half simulated (develop on fit; report check)")
    parser.add_argument(
        "--k", type=int, nargs="+", default=list(KS), help="corrections per problem (default 1 2)"
    )
    parser.add_argument(
        "--no-reference",
        action="store_true",
        help="send the requests without their reference answer",
    )
    parser.add_argument(
        "--no-refit",
        action="store_true",
        help="leave out the refit-only figure (it refits once per deployment)",
    )
    parser.add_argument(
        "--calibration",
        type=Path,
        default=None,
        help="the calibration to serve (default: the shipped one)",
    )
    parser.add_argument(
        "--fit",
        type=Path,
        default=None,
        metavar="OUT",
        help="measure the memory kinds on the fit half (every choice of one "
        "corrected solution per problem), write the calibration with "
        "that section to OUT, then run the benchmark on it",
    )


@register_study("memory_sim", arguments=add_arguments)
def memory_sim(args: argparse.Namespace) -> int:
    """Run the deployments the arguments ask for; 2 when the data is missing."""
    path = require_file(args.data / "stepmathbench_dev.jsonl")
    if any(k < 1 or k > 4 for k in args.k):
        raise StudyInputError("--k must be 1 to 4 (each problem has five solutions)")
    halves = list(HALVES) if args.half == "both" else [args.half]
    calibration = args.calibration
    if args.fit is not None:
        calibration = fit_kinds(path, calibration, args.fit)
        fit_memory_cells(args.data, calibration)
    run(
        args.data,
        halves,
        args.k,
        no_reference=args.no_reference,
        refit=not args.no_refit,
        calibration=calibration,
    )
    return 0


def fit_memory_cells(data: Path, calibration: Path) -> None:
    """The score interval's memory cells, fitted on the fit half's grades made with memory (k =
    1 and 2, with and without the reference answer: the mixes a deployment meets), written
    into the calibration's uncertainty section (`scoring.score.interval`)."""
    from eval_sets.calibrate.conformal import Graded, fit_cells
    from eval_sets.calibrate.corrections import to_text
    from eval_sets.calibrate.uncertainty import with_uncertainty
    from scoring.schema import GradeReport
    from scoring.score import features_of, uncertainty_of

    graded: list[Graded] = []
    print("fitting the memory cells on the fit half's grades with memory:", flush=True)
    for no_reference in (False, True):
        for half, k, rows in run(
            data, ["fit"], KS, no_reference=no_reference, refit=False, calibration=calibration
        ):
            for n, o in enumerate(rows):
                report = GradeReport.model_validate(o.after)
                features = features_of(report)
                if features.memory and features.mode == "offline":
                    graded.append(
                        Graded(
                            f"{k}:{no_reference}:{n}",
                            o.problem,
                            "fit",
                            o.human,
                            (),
                            (),
                            report.language,
                            features,
                        )
                    )
    cells, oof = fit_cells(graded)
    current = load_calibration(calibration)
    model = uncertainty_of(current)
    if model is None or not cells:
        print("no memory cells fitted (no uncertainty section, or too few grades)")
        return
    meta = {
        **model.meta,
        "memory": {
            "grades": len(graded),
            "out_of_fold_coverage": oof,
            "fitted_on": "StepMathBench dev fit half, memory benchmark "
            "grades (k = 1, 2; with and without reference answers)",
        },
    }
    updated = with_uncertainty(current, replace(model, memory_cells=cells, meta=meta))
    calibration.write_text(to_text(updated), encoding="utf-8")
    print(
        f"memory cells {sorted(cells)} on {len(graded)} grades (out-of-fold coverage {oof}); "
        f"wrote {calibration} (version {updated.version})",
        flush=True,
    )


def fit_kinds(path: Path, start: Path | None, out: Path) -> Path:
    """Measure the memory kinds on the fit half, print them, write the calibration to `out`."""
    from eval_sets.calibrate.corrections import to_text
    from eval_sets.memory_kinds import (
        labelled_problems,
        memory_kind_stats,
        memory_section,
        with_memory_section,
    )

    stats = memory_kind_stats(labelled_problems(path, "fit"))
    print(
        "| memory kind | on wrong steps | on right steps | precision | likelihood ratio | "
        "decisive |\n|---|---:|---:|---:|---:|---|"
    )
    for kind, s in stats.items():
        print(
            f"| {kind} | {s.wrong} | {s.right} | {s.precision} | {s.likelihood_ratio} | "
            f"{s.decisive} |"
        )
    calibration = with_memory_section(
        load_calibration(start or DEFAULT_PATH),
        memory_section(
            stats,
            "StepMathBench dev, fit half, human segmentation: each solution in turn "
            "corrected, the problem's other solutions read against it",
        ),
    )
    out.write_text(to_text(calibration), encoding="utf-8")
    print(f"wrote {out} (version {calibration.version})", flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.memory_sim`: the study over this process's arguments."""
    return run_study("memory_sim", argv)


if __name__ == "__main__":
    sys.exit(main())
