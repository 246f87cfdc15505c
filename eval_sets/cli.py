"""`stepgrade bench ...`: the benchmark runner's command line (hooked into server/cli.py)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from eval_sets.extras import require_bench_extra
from eval_sets.halves import HALVES
from eval_sets.study_cli import positive_float, positive_int

EXIT_FAILED_ITEMS = 1  # as `stepgrade grade`: some items got an error in their place
EXIT_USAGE = 2


def _grade(args: argparse.Namespace) -> int:
    from eval_sets.runner.bench import bench_grade
    from eval_sets.runner.ray_engine import RayOptions

    stats = bench_grade(
        args.dataset,
        Path(args.path),
        Path(args.out),
        mode=args.mode,
        limit=args.limit,
        subsets=args.subsets,
        concurrency=args.concurrency,
        timeout=args.timeout,
        cut=args.threshold,
        progress=not args.no_progress,
        answer_timeout=args.answer_timeout,
        engine=args.engine,
        ray=RayOptions.from_args(args),
        half=args.half,
    )
    if stats.failed:
        print(
            f"stepgrade bench: {stats.failed} of {stats.total} items failed (results.jsonl "
            "says why); the others were graded",
            file=sys.stderr,
        )
        return EXIT_FAILED_ITEMS
    return 0


def _fit_hazard(args: argparse.Namespace) -> int:
    from eval_sets.hazard import fit_from_items
    from eval_sets.registry import read_dataset

    loaded = read_dataset(args.dataset, Path(args.path), limit=args.limit, subsets=args.subsets)
    for row in loaded.failed:
        print(f"stepgrade bench: skipped a row that cannot be read: {row.reason}", file=sys.stderr)
    table, n = fit_from_items(loaded.items, max_step=args.max_step)
    if args.json:
        print(json.dumps({"dataset": args.dataset, "solutions": n, "hazard": list(table)}))
    else:
        print(f"first-error hazard h(k) from {n} labelled solutions ({args.dataset}):")
        print("  ".join(f"{k}:{h:.3f}" for k, h in enumerate(table, 1)))
    return 0


def _generate(args: argparse.Namespace) -> int:
    from eval_sets.generate import bench_generate

    bench_generate(args)
    return 0


def _calibrate_llm(args: argparse.Namespace) -> int:
    from eval_sets.llm_reliability import calibrate_llm

    return calibrate_llm(args)


def _list(args: argparse.Namespace) -> int:
    from eval_sets.registry import get_loader, loader_names

    for name in loader_names():
        spec = get_loader(name)
        print(f"{name:<20} v{spec.version}  {spec.description}")
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dataset", required=True, help="loader name (see `stepgrade bench list`)")
    p.add_argument("--path", required=True, help="local file (or folder, for MATH) to read")
    p.add_argument("--limit", type=positive_int, help="keep the first N items (after --subsets)")
    p.add_argument("--subsets", nargs="+", help="keep these subsets only (type, error type, ...)")


def _engine(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--engine",
        choices=["local", "ray"],
        default="local",
        help="grade here (local) or on a Ray cluster (ray; pip install '.[ray]')",
    )
    p.add_argument(
        "--address", help="Ray cluster to join (default RAY_ADDRESS, else start Ray here)"
    )
    p.add_argument(
        "--actors",
        type=positive_int,
        help="Ray actors grading at once, each with its own grader (default: one per CPU)",
    )
    p.add_argument(
        "--llm-concurrency",
        type=positive_int,
        default=8,
        help="LLM requests in flight across all Ray actors (default 8)",
    )


def register(sub: argparse._SubParsersAction) -> None:
    """Add `bench grade | generate | fit-hazard | calibrate-llm | list` to the stepgrade parser.

    The `stepgrade.commands` entry point: the service's CLI finds this through the installed
    package's metadata, so `server/` never imports the benchmark runner.

    Raises:
        ModuleNotFoundError: the `bench` extra is not installed; the CLI then says so.
    """
    require_bench_extra()
    bench = sub.add_parser("bench", help="run the benchmark runner over a data set")
    bsub = bench.add_subparsers(dest="bench_command", required=True)

    g = bsub.add_parser("grade", help="grade a data set against its gold labels")
    _common(g)
    g.add_argument("--out", required=True, help="output folder (a rerun resumes it)")
    g.add_argument("--mode", choices=["offline", "llm"], default="offline")
    g.add_argument("--concurrency", type=positive_int, help="items in flight (1 offline, 4 llm)")
    g.add_argument("--timeout", type=positive_float, default=120.0, help="seconds per item")
    g.add_argument(
        "--threshold",
        type=float,
        default=0.5,
        help="validity/redundancy score cut for F1 (ReasonEval: 0.5)",
    )
    g.add_argument(
        "--answer-timeout",
        type=positive_float,
        help="seconds per symbolic answer check (grader default 2; raise it on a busy "
        "machine for reproducible figures)",
    )
    g.add_argument(
        "--half",
        choices=list(HALVES),
        help="grade only the problems of this half (split by a hash of the problem "
        "text; --limit then counts the half's items)",
    )
    g.add_argument("--no-progress", action="store_true", help="no progress bar")
    _engine(g)
    g.set_defaults(func=_bench(_grade))

    h = bsub.add_parser("fit-hazard", help="refit the HCRS first-error hazard from gold labels")
    _common(h)
    h.add_argument("--max-step", type=positive_int, default=12)
    h.add_argument("--json", action="store_true")
    h.set_defaults(func=_bench(_fit_hazard))

    n = bsub.add_parser(
        "generate", help="ReAlign: generate solutions with a model, then grade them"
    )
    _common(n)
    n.add_argument("--model", required=True, help="model name at the OpenAI-compatible endpoint")
    n.add_argument("--base-url", help="endpoint (default STEPGRADE_LLM_BASE_URL)")
    n.add_argument("--api-key", help="bearer key (default STEPGRADE_LLM_API_KEY)")
    n.add_argument("--out", required=True, help="output folder (a rerun resumes it)")
    n.add_argument(
        "--mode",
        choices=["offline", "llm"],
        default="offline",
        help="how to grade the generated solutions",
    )
    n.add_argument("--concurrency", type=positive_int, default=4)
    n.add_argument("--timeout", type=positive_float, default=120.0, help="seconds per item")
    n.add_argument("--max-tokens", type=positive_int, default=2048)
    n.add_argument("--no-progress", action="store_true")
    _engine(n)
    n.set_defaults(func=_bench(_generate))

    c = bsub.add_parser(
        "calibrate-llm",
        help="measure a model's step sensitivity and false "
        "alarms per language into a calibration file",
    )
    _common(c)
    c.add_argument(
        "--half",
        choices=[*HALVES, "all"],
        default="fit",
        help="measure on this half of the problems (default fit)",
    )
    c.add_argument("--base-url", help="endpoint (default STEPGRADE_LLM_BASE_URL)")
    c.add_argument("--model", help="model name, the section's key (default STEPGRADE_LLM_MODEL)")
    c.add_argument(
        "--calibration",
        help="calibration to start from (default STEPGRADE_CALIBRATION, else the shipped one)",
    )
    c.add_argument(
        "--out",
        help="file to write (default ./calibration.json: a copy of the "
        "starting calibration, updated in place if it exists)",
    )
    c.add_argument(
        "--in-place",
        action="store_true",
        help="write into the starting calibration itself (the shipped one included)",
    )
    c.add_argument("--work", help="keep the graded run here (resumable); default a temp folder")
    c.add_argument("--concurrency", type=positive_int, default=4, help="items in flight")
    c.add_argument("--timeout", type=positive_float, default=120.0, help="seconds per item")
    c.add_argument(
        "--answer-timeout", type=positive_float, help="seconds per symbolic answer check"
    )
    c.add_argument("--no-progress", action="store_true", help="no progress bar")
    c.set_defaults(func=_bench(_calibrate_llm))

    ls = bsub.add_parser("list", help="list the dataset loaders")
    ls.set_defaults(func=_list)


def _bench(fn: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """Run a bench command; bad input becomes one line on stderr and exit code 2, no traceback."""

    def run(args: argparse.Namespace) -> int:
        from agent.grader import LlmUnavailableError
        from eval_sets.registry import DatasetError
        from eval_sets.runner.bench import RunMismatchError
        from eval_sets.runner.ray_engine import EngineError

        try:
            return int(fn(args))
        except (
            DatasetError,
            RunMismatchError,
            LlmUnavailableError,
            FileNotFoundError,
            ValueError,
        ) as err:
            print(f"stepgrade bench: {err}", file=sys.stderr)
            return EXIT_USAGE
        except EngineError as err:
            print(f"stepgrade bench: {err}; rerun the same command to resume", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            print("stepgrade bench: interrupted; rerun the same command to resume", file=sys.stderr)
            return 130

    return run


def register_calibrate(sub: argparse._SubParsersAction) -> None:
    """Add `calibrate` (recalibration from teachers' corrections) to the stepgrade parser.

    Its own `stepgrade.commands` entry point, apart from `bench`: it needs no extra (numpy and
    httpx are the service's own dependencies), so a service install has it.
    """
    from eval_sets.calibrate.corrections_args import add_arguments

    c = sub.add_parser(
        "calibrate",
        help="refit the calibration on the corrected grades of a "
        "service (or an export file) and write a new calibration file",
    )
    add_arguments(c)
    c.set_defaults(func=_calibrate)


def _calibrate(args: argparse.Namespace) -> int:
    """`stepgrade calibrate`: the refit, imported when the command runs."""
    from eval_sets.calibrate.corrections import run

    return run(args)
