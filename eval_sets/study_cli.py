"""`stepgrade study NAME [options]`: the studies of `eval_sets/studies/` run by name, and the
command-line pieces they share.

A study is one measurement (over the development sets, against a fake model, or of the running
service) that prints its tables: a callable over its parsed options returning the exit code,
registered by name with `eval_sets.plugins.register_study`, as lm-evaluation-harness registers its
tasks. The options several studies read (`--data`, `--half`, `--out`, `--limit`, `--timeout`,
`--answer-timeout`) are added here, so that they read alike everywhere. `python -m
eval_sets.studies.NAME` runs the same study with the same options.

Exit codes: 0 done, 1 a study's target missed (the study says which), 2 bad input (an unknown
study, a missing file or folder, options that do not go together): one line on stderr, no
traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from eval_sets.extras import require_bench_extra
from eval_sets.halves import HALVES

if TYPE_CHECKING:  # the registry is imported where a study runs: `stepgrade --help` stays light
    from eval_sets.plugins import StudySpec

STUDIES_PACKAGE = "eval_sets.studies"
EXIT_USAGE = 2
DEFAULT_DATA = Path("../shared/data")


class StudyInputError(ValueError):
    """Input a study cannot run on (a missing file, options that do not go together): its
    message is printed after the study's name and the run ends with exit code 2."""


def load_studies() -> dict[str, StudySpec]:
    """Every study, by name: each module of `eval_sets/studies/` imported registers its own."""
    from eval_sets.plugins import STUDIES

    package = importlib.import_module(STUDIES_PACKAGE)
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_"):
            importlib.import_module(f"{STUDIES_PACKAGE}.{info.name}")
    return STUDIES


def get_study(name: str) -> StudySpec:
    """The study registered as `name` (already registered when its module runs as `__main__`).

    Raises:
        StudyInputError: no study has that name; the message lists the known ones.
    """
    from eval_sets.plugins import STUDIES

    if name in STUDIES:
        return STUDIES[name]
    studies = load_studies()
    if name not in studies:
        raise StudyInputError(f"unknown study {name!r}; known: {', '.join(sorted(studies))}")
    return studies[name]


def run_study(name: str, argv: Sequence[str] | None = None, prog: str | None = None) -> int:
    """Parse `argv` (default: this process's arguments) with the study's options and run it; a
    StudyInputError becomes one line on stderr and exit code 2."""
    spec = get_study(name)
    parser = argparse.ArgumentParser(
        prog=prog or f"python -m {STUDIES_PACKAGE}.{name}", description=spec.description
    )
    spec.arguments(parser)
    args = parser.parse_args(argv)
    try:
        return int(spec.run(args))
    except StudyInputError as err:
        print(f"{name}: {err}", file=sys.stderr)
        return EXIT_USAGE


def require_file(path: Path) -> Path:
    """`path`, when it is a file; a StudyInputError otherwise."""
    if not path.is_file():
        raise StudyInputError(f"no such file: {path}")
    return path


def require_folder(path: Path) -> Path:
    """`path`, when it is a folder; a StudyInputError otherwise."""
    if not path.is_dir():
        raise StudyInputError(f"no such folder: {path}")
    return path


# ------------------------------------------------------------------------- shared options


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a number above 0."""
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def add_data(
    parser: argparse.ArgumentParser,
    help: str,
    *,
    required: bool = False,
    default: Path | None = None,
) -> None:
    """`--data`: the development set (a file) or the folder of them the study reads."""
    parser.add_argument("--data", type=Path, required=required, default=default, help=help)


def add_half(
    parser: argparse.ArgumentParser, default: str, *, both: bool = True, help: str | None = None
) -> None:
    """`--half`: the half of the problems measured (`eval_sets.halves`), or both."""
    parser.add_argument(
        "--half", choices=[*HALVES, "both"] if both else list(HALVES), default=default, help=help
    )


def add_out(parser: argparse.ArgumentParser) -> None:
    """`--out`: the folder a study writes its runs and tables into."""
    parser.add_argument("--out", type=Path, required=True, help="output folder")


def add_limit(parser: argparse.ArgumentParser, help: str) -> None:
    """`--limit N`: a cheap run over the first items only."""
    parser.add_argument("--limit", type=int, help=help)


def add_splits(parser: argparse.ArgumentParser) -> None:
    """`--splits`: the seeds of the deployment studies' A/B split (`deployment_items.group`)."""
    parser.add_argument("--splits", type=int, default=5, help="seeds of the A/B split")


def add_timeout(parser: argparse.ArgumentParser, default: float = 2.0) -> None:
    """`--timeout`: seconds per symbolic answer check of a study that runs the check itself."""
    parser.add_argument(
        "--timeout", type=float, default=default, help="seconds per symbolic answer check"
    )


def add_answer_timeout(parser: argparse.ArgumentParser, default: float = 30.0) -> None:
    """`--answer-timeout`: seconds per symbolic answer check of the grades a study makes."""
    parser.add_argument(
        "--answer-timeout",
        type=float,
        default=default,
        help="seconds per symbolic answer check (generous: load must not change a verdict)",
    )


# ------------------------------------------------------------------------ stepgrade study


def register(sub: argparse._SubParsersAction) -> None:
    """Add `study list | NAME [options]` to the stepgrade parser (the `stepgrade.commands`
    entry point: `server/` never imports the studies).

    Raises:
        ModuleNotFoundError: the `bench` extra is not installed; the CLI then says so.
    """
    require_bench_extra()
    p = sub.add_parser(
        "study",
        help="run a study by name (`stepgrade study list` names them)",
        description="Run a study by name; `stepgrade study NAME --help` shows its options.",
    )
    p.add_argument("name", help="the study to run, or `list`")
    p.add_argument("options", nargs=argparse.REMAINDER, help="the study's own options")
    p.set_defaults(func=_study)


def _study(args: argparse.Namespace) -> int:
    if args.name == "list":
        for name, spec in sorted(load_studies().items()):
            print(f"{name:<20} {spec.description}")
        return 0
    try:
        get_study(args.name)
    except StudyInputError as err:
        print(f"stepgrade study: {err}", file=sys.stderr)
        return EXIT_USAGE
    return run_study(args.name, args.options, prog=f"stepgrade study {args.name}")
