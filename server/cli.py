"""The `stepgrade` command: `grade` files of requests, `serve` the HTTP service."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TextIO

from agent.grader import LlmUnavailableError
from eval_sets.cli import add_bench_parser

EXIT_USAGE = 2


def _read_input(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    path = Path(source)
    if not path.is_file():
        raise FileNotFoundError(f"no such file: {source}")
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{source} is not UTF-8 text ({err.reason})") from None


def _grade(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from agent.build import make_grader
    from agent.settings import GradingSettings
    from server.pretty import format_report
    from server.requests_io import InputError, parse_requests

    try:
        requests = parse_requests(_read_input(args.file))
    except (InputError, FileNotFoundError, ValueError) as err:
        print(f"stepgrade: {err}", file=sys.stderr)
        return EXIT_USAGE
    if args.mode:
        requests = [r.model_copy(update={"mode": args.mode}) for r in requests]
    try:
        settings = GradingSettings()
    except ValidationError as err:
        print(f"stepgrade: invalid STEPGRADE_* settings: {err}", file=sys.stderr)
        return EXIT_USAGE
    grader = make_grader(settings)
    out: TextIO = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        for number, request in enumerate(requests, 1):
            if len(requests) > 1:
                print(f"grading {number}/{len(requests)}", file=sys.stderr)
            report = grader.grade(request)
            if args.pretty:
                out.write(format_report(report) + "\n\n")
            else:
                out.write(report.model_dump_json() + "\n")
            out.flush()
    except LlmUnavailableError as err:
        print(f"stepgrade: {err}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


def _serve(args: argparse.Namespace) -> int:
    from server.serve import serve
    from server.settings import Settings

    settings = Settings()
    serve(settings, args.host or settings.host, args.port or settings.port)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stepgrade", description="Grade step-by-step math solutions on their process."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("grade", help="grade GradeRequests (JSON or JSON lines) into GradeReports")
    g.add_argument("file", nargs="?", default="-", help="input file, or - for stdin (default)")
    g.add_argument("--mode", choices=["offline", "llm", "auto"], help="override each request's mode")
    g.add_argument("--output", "-o", help="write JSON lines here instead of stdout")
    g.add_argument("--pretty", action="store_true", help="print readable tables instead of JSON")
    g.set_defaults(func=_grade)
    s = sub.add_parser("serve", help="start the HTTP service")
    s.add_argument("--host", help="interface to bind (default STEPGRADE_HOST or 127.0.0.1)")
    s.add_argument("--port", type=int, help="port (default STEPGRADE_PORT or 8000)")
    s.set_defaults(func=_serve)
    add_bench_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
