"""Imports run one way (DESIGN.md 1 and 4.10): parsing helpers read, checks find, the decision
layer decides, and `scoring/` uses neither the graph, the service nor the runner.

A scan of every module's import statements (the source, not a running interpreter, so an
import inside a function counts too). Dependencies are followed through other `scoring`
modules: a decision module that imported a helper which imported a check would break the
layout as surely as importing the check itself.
"""

from __future__ import annotations

import ast
from collections import deque
from pathlib import Path

import pytest

SCORING = Path(__file__).resolve().parents[2] / "scoring"

# (modules the rule covers, modules they must not reach, why)
RULES = [
    ("scoring.parse", "scoring.judge", "parsing helpers read; they use no check, no decision"),
    ("scoring.judge.checks", "scoring.judge.decide", "checks find; they do not decide"),
    ("scoring.judge.decide", "scoring.judge.checks", "the decision layer reads findings only"),
]
OUTSIDE = ("agent", "server", "eval_sets")


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(source: str, module: str, is_package: bool) -> set[str]:
    """Every dotted name an import statement of `source` names, relative ones resolved: the
    module itself and, for `from m import n`, `m.n` too (n may be a submodule)."""
    package = module if is_package else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the dotted names it imports, for every module under `root`."""
    return {module_name(path, root): imported(path.read_text(encoding="utf-8"),
                                              module_name(path, root), path.name == "__init__.py")
            for path in sorted(root.rglob("*.py"))}


def reached(graph: dict[str, set[str]], start: str, banned: str) -> list[str] | None:
    """The import chain from `start` to a module within `banned`, following modules of the
    graph; None when there is none."""
    chains: deque[list[str]] = deque([[start]])
    seen = {start}
    while chains:
        chain = chains.popleft()
        for name in sorted(graph.get(chain[-1], ())):
            if _within(name, banned):
                return [*chain, name]
            if name in graph and name not in seen:
                seen.add(name)
                chains.append([*chain, name])
    return None


def violations(root: Path) -> list[str]:
    graph = import_graph(root)
    found = []
    for covered, banned, why in RULES:
        for module in sorted(m for m in graph if _within(m, covered)):
            if chain := reached(graph, module, banned):
                found.append(f"{' -> '.join(chain)}: {why}")
    for module, names in sorted(graph.items()):
        for name in sorted(names):
            if any(_within(name, outside) for outside in OUTSIDE):
                found.append(f"{module} imports {name}: scoring/ uses neither agent, server "
                             "nor eval_sets")
    return found


def test_scoring_imports_run_one_way():
    assert violations(SCORING) == []


@pytest.mark.parametrize("package", [covered for covered, _, _ in RULES])
def test_each_rule_covers_a_package_with_modules(package):
    """A rule over a package that moved or emptied would pass without checking anything."""
    graph = import_graph(SCORING)
    assert len([m for m in graph if _within(m, package)]) >= 3


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "scoring"
    for name, source in {"__init__.py": "", "parse/__init__.py": "", "judge/__init__.py": "",
                         "judge/checks/__init__.py": "", "judge/decide/__init__.py": "",
                         "judge/findings.py": "", **files}.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(source, encoding="utf-8")
    return root


@pytest.mark.parametrize(("files", "expected"), [
    ({"parse/a.py": "from scoring.judge.findings import Finding\n"},
     "scoring.parse.a -> scoring.judge.findings"),
    ({"parse/a.py": "def f():\n    from ..judge import findings\n"},
     "scoring.parse.a -> scoring.judge"),
    ({"parse/a.py": "from scoring import judge\n"}, "scoring.parse.a -> scoring.judge"),
    ({"judge/checks/c.py": "import scoring.judge.decide.labels as labels\n"},
     "scoring.judge.checks.c -> scoring.judge.decide.labels"),
    ({"judge/decide/d.py": "from scoring.judge import helper\n",
      "judge/helper.py": "from scoring.judge.checks import c\n", "judge/checks/c.py": ""},
     "scoring.judge.decide.d -> scoring.judge.helper -> scoring.judge.checks"),
    ({"tree.py": "from agent.state import GradeState\n"}, "scoring.tree imports agent.state"),
])
def test_the_scan_sees_a_wrong_import(tmp_path, files, expected):
    found = violations(_tree(tmp_path, files))
    assert any(v.startswith(expected) for v in found), found


def test_the_scan_allows_imports_that_run_the_right_way(tmp_path):
    root = _tree(tmp_path, {
        "parse/a.py": "from scoring.parse import b\nfrom . import b as c\n",
        "parse/b.py": "import re\n",
        "judge/checks/c.py": "from scoring.parse.a import x\nfrom ..findings import F\n",
        "judge/decide/d.py": "from scoring.judge.findings import F\n",
        "judge/collect.py": "from scoring.judge.checks import c\n",
    })
    assert violations(root) == []
