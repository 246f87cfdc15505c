"""The `stepgrade` command: `grade` files of requests, `serve` the HTTP service.

Other installed parts add their own subcommands through the `stepgrade.commands` entry-point
group (`bench`, from the benchmark runner, with the `bench` extra), so the service does not
import them. `grade` exits 0 when every line got a report, 1 when some line got an error in its place (the
others are graded), 2 for usage errors only (bad arguments, a missing or empty file).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from server.store.admin import add_store_commands

if TYPE_CHECKING:  # imported where a command runs: `stepgrade --help` loads no grader
    from agent.grader import Grader
    from scoring.schema import GradeReport
    from server.requests_io import Item, ItemError

log = logging.getLogger("stepgrade.cli")

EXIT_FAILED_ITEMS = 1
EXIT_USAGE = 2

COMMAND_GROUP = "stepgrade.commands"
# Subcommands an extra provides: named here only to say how to get them when they are missing.
OPTIONAL_COMMANDS = {"bench": "bench", "study": "bench"}


def _read_input(source: str) -> bytes:
    if source == "-":
        return sys.stdin.buffer.read()
    path = Path(source)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {source}")
    return path.read_bytes()


def _graded(grader: Grader, item: Item, mode: str | None) -> GradeReport | ItemError:
    """The item's report, or why it has none: a bad line or a failed grade is one item's loss."""
    from agent.grader import LlmUnavailableError
    from scoring.judge import describe
    from server.requests_io import ItemError

    if item.error is not None:
        return item.error
    assert item.request is not None
    request = item.request.model_copy(update={"mode": mode}) if mode else item.request
    try:
        return grader.grade(request)
    except LlmUnavailableError as err:
        return ItemError("llm_unavailable", str(err), "mode")
    except Exception as err:  # reported in the item's place, the others go on
        log.debug("grading failed", exc_info=True, extra={"item": item.label()})
        return ItemError(
            "internal_error", f"the grader failed on this {item.where} ({describe(err)})"
        )


def _grade(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from agent.build import make_grader
    from agent.settings import GradingSettings
    from server.requests_io import InputError, ItemError, read_items

    try:
        items = list(read_items(_read_input(args.file)))
    except (InputError, OSError) as err:
        print(f"stepgrade: {err}", file=sys.stderr)
        return EXIT_USAGE
    try:
        settings = GradingSettings()
    except ValidationError as err:
        print(f"stepgrade: invalid STEPGRADE_* settings: {err}", file=sys.stderr)
        return EXIT_USAGE
    grader = make_grader(settings)
    if args.mode == "llm" and not grader.llm_configured:
        print(
            "stepgrade: --mode llm needs an OpenAI-compatible endpoint (STEPGRADE_LLM_BASE_URL "
            "and STEPGRADE_LLM_MODEL); none is configured",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        out: TextIO = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    except OSError as err:
        print(f"stepgrade: cannot write {args.output}: {err.strerror or err}", file=sys.stderr)
        return EXIT_USAGE
    failed = 0
    try:
        for number, item in enumerate(items, 1):
            if len(items) > 1:
                print(f"grading {number}/{len(items)}", file=sys.stderr)
            result = _graded(grader, item, args.mode)
            if isinstance(result, ItemError):
                failed += 1
                print(f"stepgrade: {item.label()}: {result.message}", file=sys.stderr)
            out.write(_shown(item, result, args.pretty))
            out.flush()
    finally:
        if out is not sys.stdout:
            out.close()
    if failed:
        print(
            f"stepgrade: {failed} of {len(items)} failed; the others were graded", file=sys.stderr
        )
        return EXIT_FAILED_ITEMS
    return 0


def _shown(item: Item, result: GradeReport | ItemError, pretty: bool) -> str:
    from server.pretty import format_report
    from server.requests_io import ItemError

    if isinstance(result, ItemError):
        if pretty:
            return f"{item.label()}: error {result.code}: {result.message}\n\n"
        return json.dumps(item.error_json(result), ensure_ascii=False) + "\n"
    return format_report(result) + "\n\n" if pretty else result.model_dump_json() + "\n"


def _serve(args: argparse.Namespace) -> int:
    from server.core.settings import Settings
    from server.serve import serve

    settings = Settings()
    serve(settings, args.host or settings.host, args.port or settings.port)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The `stepgrade` command line: serve, grade, and the subcommands that extras register."""
    parser = argparse.ArgumentParser(
        prog="stepgrade", description="Grade step-by-step math solutions on their process."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grade", help="grade GradeRequests (JSON or JSON lines) into GradeReports")
    g.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    g.add_argument(
        "--mode", choices=["offline", "llm", "auto"], help="override each request's mode"
    )
    g.add_argument("--output", "-o", help="write JSON lines here instead of stdout")
    g.add_argument("--pretty", action="store_true", help="print readable tables instead of JSON")
    g.set_defaults(func=_grade)
    s = sub.add_parser("serve", help="start the HTTP service")
    s.add_argument("--host", help="interface to bind (default STEPGRADE_HOST or 127.0.0.1)")
    s.add_argument("--port", type=int, help="port (default STEPGRADE_PORT or 8000)")
    s.set_defaults(func=_serve)
    add_store_commands(sub)
    _add_installed_commands(sub)
    return parser


def _add_installed_commands(sub: argparse._SubParsersAction) -> None:
    """Each `stepgrade.commands` entry point registers its subcommands on `sub`.

    A known command whose extra is missing still parses, and says how to install it instead of
    argparse's "invalid choice".
    """
    found: set[str] = set()
    for point in entry_points(group=COMMAND_GROUP):
        if point.name in found:  # the same distribution seen twice on sys.path
            continue
        found.add(point.name)
        try:
            point.load()(sub)
        except ImportError as err:
            _add_missing(sub, point.name, f"a module it needs is missing ({err})")
    for name in OPTIONAL_COMMANDS.keys() - found:
        _add_missing(sub, name, "it is not registered (an old install: reinstall the package)")


def _add_missing(sub: argparse._SubParsersAction, name: str, why: str) -> None:
    extra = OPTIONAL_COMMANDS.get(name, name)
    message = (
        f"stepgrade {name}: not available, {why}; install the `{extra}` extra: "
        f"pip install 'stepgrade[{extra}]' (in a checkout: make install)"
    )
    stub = sub.add_parser(name, help=f"(not installed: needs the `{extra}` extra)")
    stub.add_argument("rest", nargs=argparse.REMAINDER)

    def unavailable(args: argparse.Namespace) -> int:
        print(message, file=sys.stderr)
        return EXIT_USAGE

    stub.set_defaults(func=unavailable)


def main(argv: list[str] | None = None) -> int:
    """Run one `stepgrade` command; returns the exit status (2 with a message on bad input)."""
    args = build_parser().parse_args(argv)
    from agent.build import ConfigError  # after parsing: `--help` imports no grader

    try:
        return int(args.func(args))
    except ConfigError as err:
        print(f"stepgrade: {err}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
