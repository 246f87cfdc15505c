"""Agreement of the answer check with a peer grader's own test tables (Math-Verify's).

    stepgrade study peer_suite DIR [--timeout SECONDS] [--quiet]

`DIR` is the `tests/` folder of Math-Verify's source distribution, which the user fetches and
unpacks (`pip download math-verify==0.9.0 --no-binary :all: --no-deps -d D`, then `tar xzf`);
nothing of it is copied into the project. Its test files hold parametrised tables of (gold,
prediction, expected) cases. They are read here from the source with `ast` (never imported or
run): every `@pytest.mark.parametrize` whose argument names include `gold`, `pred` and
`expected` (or `result`), with the literal rows of its table; the other arguments a row sets
(`precision`, `strict`, `allow_set_relation_comp`) are kept as the row's settings. A row that is
not a literal, or whose length differs from its names, is counted as skipped.

Each case runs the answer check as a grade does: the gold is the reference answer (the answer it
marks, `\\boxed{}` or "Final Answer:", when it is a worked solution; the text as written
otherwise), and the prediction is a solution text whose answer is extracted
(`scoring.answer.compare.check_answer`). A case agrees when the check's verdict (equal or not;
undecided counts as not equal) is the expected one. The figures are printed by kind of case (the
test function, in its file), the cases whose settings differ from Math-Verify's defaults
(precision 6, strict, no set-relation comparison) apart, and every disagreement is listed.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from eval_sets.plugins import register_study
from eval_sets.study_cli import StudyInputError, add_timeout, require_folder, run_study
from scoring.answer import AnswerCheck, check_answer, find_answer

DEFAULT_SETTINGS: dict[str, object] = {
    "precision": 6,
    "strict": True,
    "allow_set_relation_comp": False,
}
_EXPECTED = ("expected", "result")


@dataclass(frozen=True)
class PeerCase:
    """One row of a peer's test table."""

    gold: str
    pred: str
    expected: bool
    kind: str  # `file::test_function`
    line: int
    settings: dict[str, object] = field(default_factory=dict)

    @property
    def default(self) -> bool:
        """Whether the row runs under the peer's default settings."""
        return all(DEFAULT_SETTINGS.get(k) == v for k, v in self.settings.items())


def _names(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [n.strip() for n in node.value.split(",")]
    if isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return [str(e.value) for e in node.elts]  # type: ignore[attr-defined]
    return None


def _tables(tree: ast.AST) -> Iterator[tuple[str, list[str], ast.expr]]:
    """(test function, argument names, table node) of each parametrise decorator."""
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for deco in node.decorator_list:
            if (
                isinstance(deco, ast.Call)
                and isinstance(deco.func, ast.Attribute)
                and deco.func.attr == "parametrize"
                and len(deco.args) >= 2
            ):
                names = _names(deco.args[0])
                if names is not None:
                    yield node.name, names, deco.args[1]


def read_cases(folder: Path) -> tuple[list[PeerCase], int]:
    """The (gold, pred, expected) rows of every test file under `folder`, and how many rows of
    those tables were skipped (not literals, or of the wrong length)."""
    cases: list[PeerCase] = []
    skipped = 0
    for path in sorted(folder.rglob("test*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for test, names, table in _tables(tree):
            expected = next((n for n in _EXPECTED if n in names), None)
            if not {"gold", "pred"} <= set(names) or expected is None:
                continue
            rows = table.elts if isinstance(table, (ast.List, ast.Tuple)) else []
            for row in rows:
                try:
                    values = ast.literal_eval(row)
                except ValueError:
                    skipped += 1
                    continue
                if not isinstance(values, tuple) or len(values) != len(names):
                    skipped += 1
                    continue
                given = dict(zip(names, values, strict=True))
                settings = {k: v for k, v in given.items() if k not in ("gold", "pred", expected)}
                cases.append(
                    PeerCase(
                        str(given["gold"]),
                        str(given["pred"]),
                        bool(given[expected]),
                        f"{path.name}::{test}",
                        row.lineno,
                        settings,
                    )
                )
    return cases, skipped


def reference_of(gold: str) -> str:
    """The reference a gold text gives: the answer it marks when it is a worked solution
    (`\\boxed{}`, "Final Answer:"), else the text as written."""
    found = find_answer(gold)
    return found.text if found.anchored and found.text else gold


def run_case(case: PeerCase, timeout: float) -> AnswerCheck:
    """The answer check of the case's prediction against its reference."""
    return check_answer(case.pred, [reference_of(case.gold)], timeout=timeout)


def _share(agree: int, total: int) -> str:
    return f"{agree:>4}/{total:<4} {agree / total:6.1%}" if total else f"{0:>4}/{0:<4}    -  "


def report(cases: list[PeerCase], checks: list[AnswerCheck], skipped: int, quiet: bool) -> None:
    """Print agreement overall, by kind and for the non-default settings, then the misses."""
    agree: Counter[str] = Counter()
    total: Counter[str] = Counter()
    misses = []
    for case, check in zip(cases, checks, strict=True):
        ok = bool(check.correct) == case.expected
        keys = ["all", "default" if case.default else "settings", f"kind:{case.kind}"]
        for key in keys:
            total[key] += 1
            agree[key] += ok
        if not ok:
            misses.append((case, check))
    print(
        f"peer cases {total['all']} (skipped {skipped}): agreement "
        f"{_share(agree['all'], total['all']).strip()}; default settings "
        f"{_share(agree['default'], total['default']).strip()}; other settings "
        f"{_share(agree['settings'], total['settings']).strip()}"
    )
    print(f"  {'kind of case':<58} {'agree':>16}")
    for key in sorted(k for k in total if k.startswith("kind:")):
        print(f"  {key.removeprefix('kind:'):<58} {_share(agree[key], total[key]):>16}")
    if quiet:
        return
    print(f"  disagreements ({len(misses)}):")
    for case, check in misses:
        settings = f" {case.settings}" if case.settings else ""
        print(
            f"  {case.kind}:{case.line}{settings} expected {case.expected}, got {check.correct}"
            f" ({check.reading or 'no reading'}); found {str(check.extracted)[:80]!r} for gold"
            f" {reference_of(case.gold)[:80]!r}; pred {case.pred[:100]!r}"
        )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The study's options."""
    parser.add_argument("folder", type=Path, help="the peer's tests/ folder")
    add_timeout(parser)
    parser.add_argument("--quiet", action="store_true", help="do not list the disagreements")


@register_study("peer_suite", arguments=add_arguments)
def peer_suite(args: argparse.Namespace) -> int:
    """Read the peer's tables, run the answer check on each case and print the agreement; 2 on
    a missing folder or one without any table."""
    require_folder(args.folder)
    try:
        cases, skipped = read_cases(args.folder)
    except (SyntaxError, UnicodeDecodeError) as err:
        raise StudyInputError(f"cannot read a test file: {err}") from err
    if not cases:
        raise StudyInputError(f"no (gold, pred, expected) tables under {args.folder}")
    checks = [run_case(case, args.timeout) for case in cases]
    report(cases, checks, skipped, args.quiet)
    return 0


def main(argv: list[str] | None = None) -> int:
    """`python -m eval_sets.studies.peer_suite`: the study over this process's arguments."""
    return run_study("peer_suite", argv)


if __name__ == "__main__":
    sys.exit(main())
