"""Imports run one way (docs/architecture.md 1 and 4.10): parsing helpers read, checks find, the decision
layer decides, and `scoring/` uses neither the graph, the service nor the runner. Inside scoring,
each stage stands on a floor and imports only from its own floor and those below (`FLOORS`).
Across the project: scoring <- prompts <- agent <- server <- eval_sets, the packages outside
scoring import it only through its faces (`scoring` and `scoring.<name>`), nothing imports tests,
no module imports another's underscore names, and no import cycle.

A scan of every module's import statements (the source, not a running interpreter, so an
import inside a function counts too). Dependencies are followed through other `scoring`
modules: a decision module that imported a helper which imported a check would break the
layout as surely as importing the check itself.
"""

from __future__ import annotations

import ast
import importlib
from collections import deque
from collections.abc import Sequence
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCORING = ROOT / "scoring"
PACKAGES = ("scoring", "agent", "server", "eval_sets", "prompts", "example_requests")
# package -> the project packages it may import. The service must not need the benchmarks (a
# service install has no bench extra), and nothing shipped may need the tests.
MAY_IMPORT: dict[str, frozenset[str]] = {
    # the fence reads student text as the checks do (`scoring.parse.fold`)
    "prompts": frozenset({"scoring"}),
    "scoring": frozenset(),
    # the example requests, validated as requests where they are read
    "example_requests": frozenset({"scoring"}),
    "agent": frozenset({"scoring", "prompts"}),
    "server": frozenset({"scoring", "agent", "prompts", "example_requests"}),
    "eval_sets": frozenset({"scoring", "agent", "server", "prompts", "example_requests"}),
}
PROJECT = (*PACKAGES, "tests")
MAX_SCORING_TOP_LEVEL = 8  # scoring reads as a few flat stages, not a sprawl of modules

# (modules the rule covers, modules they must not reach, why)
RULES = [
    ("scoring.parse", "scoring.judge", "parsing helpers read; they use no check, no decision"),
    ("scoring.judge.checks", "scoring.judge.decide", "checks find; they do not decide"),
    ("scoring.judge.decide", "scoring.judge.checks", "the decision layer reads findings only"),
]
OUTSIDE = ("agent", "server", "eval_sets")

# scoring's floors, lowest first: a module imports from its own floor and those below only. A
# module's floor is that of the longest name here it lies within; `scoring` itself, the face
# that gathers every stage, stands above them all.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("scoring.schema", "scoring.verdict"),  # the types every stage passes on
    ("scoring.parse",),  # reading text into values and relations, and the tolerance policy
    ("scoring.answer",),  # the final answer: extract, read, compare
    ("scoring.align",),  # ReAlign's alignment to the reference steps
    ("scoring.steps",),  # segmentation, language, problem type, difficulty
    ("scoring.score.stepmath",),  # Eq. 1: the decision layer chooses labels by it
    ("scoring.judge",),  # checks find, the decision layer decides
    ("scoring.score",),  # from labels to the report: HCRS, tree, quadrants, interval, fusion
)
# The modules of scoring that read files or start processes, its edges; the rest is pure.
IO_EDGES = (
    "scoring.judge.load",  # the calibration file
    "scoring.answer.load",  # the answer routes' measured precision
    "scoring.answer.worker",  # the math-verify worker processes
)
IO_CALLS = frozenset({"open", "read_text", "read_bytes", "write_text", "write_bytes"})
IO_MODULES = frozenset(
    {"subprocess", "multiprocessing", "socket", "shutil", "tempfile", "urllib", "http", "sqlite3"}
)
# Modules outside scoring that may name a scoring module past its face, and why.
PAST_THE_FACE: dict[str, frozenset[str]] = {
    # the injection study replaces the span finder where the stripping looks it up
    "eval_sets.studies.injection_bench": frozenset({"scoring.judge.stripping"}),
}


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
    return {
        module_name(path, root): imported(
            path.read_text(encoding="utf-8"), module_name(path, root), path.name == "__init__.py"
        )
        for path in sorted(root.rglob("*.py"))
    }


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
                found.append(
                    f"{module} imports {name}: scoring/ uses neither agent, server nor eval_sets"
                )
    return found


def floor_of(module: str) -> int | None:
    """The index in `FLOORS` of the floor `module` stands on; None for one on none (`scoring`)."""
    best: tuple[int, int] | None = None  # (length of the matching name, floor)
    for floor, names in enumerate(FLOORS):
        for name in names:
            if _within(module, name) and (best is None or len(name) > best[0]):
                best = (len(name), floor)
    return best[1] if best else None


def floor_violations(root: Path) -> list[str]:
    """Imports inside scoring that run from a lower floor up to a higher one (or to `scoring`,
    which stands above every floor)."""
    graph = import_graph(root)
    found = []
    for module, targets in sorted(module_edges(graph).items()):
        own = floor_of(module)
        if own is None:
            continue
        for target in sorted(targets):
            floor = floor_of(target)
            if floor is None or floor > own:
                found.append(f"{module} imports {target}: a lower floor imports no higher one")
    return found


def io_violations(root: Path) -> list[str]:
    """Files read or written, or processes started, by a scoring module that is not an edge."""
    found = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        if any(_within(module, edge) for edge in IO_EDGES):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = (
                    func.id
                    if isinstance(func, ast.Name)
                    else func.attr
                    if isinstance(func, ast.Attribute)
                    else ""
                )
                if name in IO_CALLS:
                    found.append(f"{module}:{node.lineno} calls {name}: I/O only at the edges")
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                    if not node.level
                    else []
                )
                for name in names:
                    if name.split(".")[0] in IO_MODULES:
                        found.append(
                            f"{module}:{node.lineno} imports {name}: I/O only at the edges"
                        )
    return found


def is_face(name: str) -> bool:
    """`scoring` and each module or package directly under it: what the rest may import."""
    return name.count(".") <= 1


def face_exports(root: Path) -> dict[str, set[str]]:
    """Each scoring face (a package directly under scoring) -> the names its `__all__` lists."""
    exports: dict[str, set[str]] = {}
    for init in sorted((root / "scoring").glob("*/__init__.py")):
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                exports[f"scoring.{init.parent.name}"] = set(ast.literal_eval(node.value))
    return exports


def face_violations(root: Path) -> list[str]:
    """Imports from `agent`, `server` or `eval_sets` that reach past a scoring face: the module
    a name is defined in (`scoring.judge.calibration`), or a module named through its package
    (a name the face exports wins over a submodule of the same name)."""
    graph = project_graph(root)
    exports = face_exports(root)
    scoring = {m for m in graph if _within(m, "scoring")}
    found = []
    for module, names in sorted(graph.items()):
        if module.split(".")[0] not in OUTSIDE:
            continue
        for name in sorted(names):
            target = _target(name, scoring) if _within(name, "scoring") else None
            if target is None or is_face(target) or target in PAST_THE_FACE.get(module, ()):
                continue
            face, _, attr = name.rpartition(".")
            if attr not in exports.get(face, ()):
                found.append(f"{module} imports {name}: import scoring through its faces")
    return found


def project_graph(root: Path, packages: Sequence[str] = PACKAGES) -> dict[str, set[str]]:
    """Module -> the dotted names it imports, for every module of `packages` under `root`."""
    graph: dict[str, set[str]] = {}
    for package in packages:
        if (root / package).is_dir():
            graph.update(import_graph(root / package))
    return graph


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports of a project package that the importer's package may not use (MAY_IMPORT)."""
    found = []
    for module, names in sorted(graph.items()):
        own = module.split(".")[0]
        for name in sorted(names):
            other = name.split(".")[0]
            if other in PROJECT and other != own and other not in MAY_IMPORT.get(own, ()):
                allowed = ", ".join(sorted(MAY_IMPORT.get(own, ()))) or "no other package"
                found.append(f"{module} imports {name}: {own} may import {allowed}")
    return found


def _target(name: str, modules: set[str]) -> str | None:
    """The module of `modules` an imported name loads: itself, or the module that defines it."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def module_edges(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Module -> the project modules it imports (a name resolved to the module defining it)."""
    modules = set(graph)
    edges: dict[str, set[str]] = {}
    for module, names in graph.items():
        targets = {t for name in names if (t := _target(name, modules))}
        # `from pkg import sub` names pkg too; the edge that matters is to pkg.sub.
        targets -= {t for t in targets if any(o != t and _within(o, t) for o in targets)}
        edges[module] = targets - {module}
    return edges


def cycles(graph: dict[str, set[str]]) -> list[str]:
    """Each import cycle as `a -> b -> a`, one per strongly connected group of modules."""
    edges = module_edges(graph)
    found = []
    done: set[str] = set()
    for start in sorted(edges):
        if start in done:
            continue
        # the shortest way from start back to itself, if any
        paths: deque[list[str]] = deque([[start]])
        seen = {start}
        while paths:
            path = paths.popleft()
            nxt = sorted(edges.get(path[-1], ()))
            if start in nxt:
                found.append(" -> ".join([*path, start]))
                done.update(path)
                break
            for name in nxt:
                if name not in seen:
                    seen.add(name)
                    paths.append([*path, name])
    return found


def _private(part: str) -> bool:
    return part.startswith("_") and not part.startswith("__")


def private_imports(root: Path, packages: Sequence[str] = PROJECT) -> list[str]:
    """Imports of another module's underscore names, or of a private module (`pkg._m`) from
    outside its package: what a module keeps to itself may change without telling anyone."""
    found = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            module = module_name(path, root / package)
            base_package = module if path.name == "__init__.py" else module.rpartition(".")[0]
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    if node.level:
                        parts = base_package.split(".")
                        parts = parts[: len(parts) - node.level + 1]
                        base = ".".join([*parts, *([node.module] if node.module else [])])
                    else:
                        base = node.module or ""
                    names = [f"{base}.{alias.name}" for alias in node.names]
                elif isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                else:
                    continue
                for name in names:
                    parts = name.split(".")
                    if parts[0] not in PROJECT:
                        continue
                    for i, part in enumerate(parts):
                        owner = ".".join(parts[:i])
                        if (
                            _private(part)
                            and i
                            and not _within(module, owner + "." + part)
                            and not (_within(module, owner) and i < len(parts) - 1)
                        ):
                            found.append(f"{module} imports {name}")
                            break
    return found


def scoring_top_level(root: Path) -> list[str]:
    """scoring's top-level modules and packages (its `__init__` aside)."""
    scoring = root / "scoring"
    return sorted(
        [p.stem for p in scoring.glob("*.py") if p.name != "__init__.py"]
        + [p.name for p in scoring.iterdir() if (p / "__init__.py").is_file()]
    )


def test_scoring_imports_run_one_way():
    assert violations(SCORING) == []


def test_scoring_reads_files_and_starts_processes_only_at_its_edges():
    assert io_violations(SCORING) == []


def test_each_edge_is_a_module_of_scoring():
    """An edge that moved would exempt nothing, and a new one would go unchecked."""
    graph = import_graph(SCORING)
    assert [edge for edge in IO_EDGES if edge not in graph] == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"parse/a.py": "def f(p):\n    return open(p).read()\n"}, "scoring.parse.a:2 calls open"),
        (
            {"judge/c.py": "import json\ndef f(p):\n    return json.loads(p.read_text())\n"},
            "scoring.judge.c:3 calls read_text",
        ),
        ({"parse/b.py": "from subprocess import run\n"}, "scoring.parse.b:1 imports subprocess"),
        (
            {"judge/d.py": "def f():\n    import multiprocessing.pool\n"},
            "scoring.judge.d:2 imports multiprocessing.pool",
        ),
    ],
)
def test_the_scan_sees_io_away_from_the_edges(tmp_path, files, expected):
    found = io_violations(_tree(tmp_path, files))
    assert any(v.startswith(expected) for v in found), found


def test_the_edges_may_read_files(tmp_path):
    root = _tree(
        tmp_path,
        {
            "judge/load.py": "def f(p):\n    return p.read_text()\n",
            "answer/__init__.py": "",
            "answer/worker/__init__.py": "import subprocess\n",
            "parse/a.py": "from . import b\n",
            "parse/b.py": "",
        },
    )
    assert io_violations(root) == []


def test_scoring_imports_run_down_its_floors():
    assert floor_violations(SCORING) == []


def test_every_scoring_stage_stands_on_a_floor():
    """A stage added without a floor would import anything unchecked."""
    assert [m for m in import_graph(SCORING) if m != "scoring" and floor_of(m) is None] == []


def test_the_rest_imports_scoring_through_its_faces():
    assert face_violations(ROOT) == []


@pytest.mark.parametrize("face", sorted(face_exports(ROOT)))
def test_each_face_has_every_name_it_lists(face):
    module = importlib.import_module(face)
    assert [name for name in module.__all__ if not hasattr(module, name)] == []


def test_each_exception_to_the_faces_is_still_used():
    """An exception left behind after its import went would let a new one in unnoticed."""
    graph = project_graph(ROOT)
    for module, targets in PAST_THE_FACE.items():
        assert targets <= graph[module], module


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {
                "parse/a.py": "from scoring.answer.b import x\n",
                "answer/__init__.py": "",
                "answer/b.py": "",
            },
            "scoring.parse.a imports scoring.answer.b",
        ),
        (
            {
                "judge/decide/d.py": "from scoring.score.fuse import x\n",
                "score/__init__.py": "",
                "score/fuse.py": "",
            },
            "scoring.judge.decide.d imports scoring.score.fuse",
        ),
        (
            {"schema.py": "def f():\n    from scoring.parse import a\n", "parse/a.py": ""},
            "scoring.schema imports scoring.parse.a",
        ),
        (
            {"steps/s.py": "import scoring\n", "steps/__init__.py": ""},
            "scoring.steps.s imports scoring:",
        ),
    ],
)
def test_the_scan_sees_an_import_up_the_floors(tmp_path, files, expected):
    found = floor_violations(_tree(tmp_path, files))
    assert any(v.startswith(expected) for v in found), found


def test_the_floors_allow_imports_down_and_across(tmp_path):
    root = _tree(
        tmp_path,
        {
            "score/__init__.py": "from scoring.score.fuse import fuse\n",
            "score/stepmath.py": "from scoring.schema import X\n",
            "score/fuse.py": "from scoring.judge.c import y\nfrom scoring.score.stepmath import z\n",
            "judge/c.py": "from scoring.score.stepmath import z\nfrom scoring.parse.a import w\n",
            "parse/a.py": "from scoring.parse.b import v\n",
            "parse/b.py": "",
            "schema.py": "",
            "__init__.py": "from scoring.score import fuse\n",
        },
    )
    assert floor_violations(root) == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"agent/a.py": "from scoring.judge.calibration import load\n"},
            "agent.a imports scoring.judge.calibration.load",
        ),
        (
            {"server/s.py": "def f():\n    from scoring.judge import calibration\n"},
            "server.s imports scoring.judge.calibration",
        ),
        (
            {"eval_sets/e.py": "import scoring.score.fuse as fuse\n"},
            "eval_sets.e imports scoring.score.fuse",
        ),
    ],
)
def test_the_scan_sees_an_import_past_a_face(tmp_path, files, expected):
    root = _project(
        tmp_path,
        {
            "scoring/judge/__init__.py": "",
            "scoring/judge/calibration.py": "",
            "scoring/score/__init__.py": "",
            "scoring/score/fuse.py": "",
            **files,
        },
    )
    found = face_violations(root)
    assert any(v.startswith(expected) for v in found), found


def test_the_faces_allow_their_own_names(tmp_path):
    root = _project(
        tmp_path,
        {
            "scoring/judge/__init__.py": "from scoring.judge.calibration import load\n"
            "from scoring.judge.decide.labels import decide\n"
            "__all__ = ['decide', 'load']\n",
            "scoring/judge/calibration.py": "",
            "scoring/schema.py": "",
            "scoring/judge/decide/__init__.py": "",
            "scoring/judge/decide/labels.py": "",
            "agent/a.py": "from scoring.judge import decide, load\nfrom scoring import judge\n",
            "server/s.py": "import scoring.schema\nfrom scoring.schema import GradeReport\n",
            "tests/t.py": "from scoring.judge.calibration import load\n",
        },
    )
    assert face_violations(root) == []


@pytest.mark.parametrize("package", [covered for covered, _, _ in RULES])
def test_each_rule_covers_a_package_with_modules(package):
    """A rule over a package that moved or emptied would pass without checking anything."""
    graph = import_graph(SCORING)
    assert len([m for m in graph if _within(m, package)]) >= 3


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "scoring"
    for name, source in {
        "__init__.py": "",
        "parse/__init__.py": "",
        "judge/__init__.py": "",
        "judge/checks/__init__.py": "",
        "judge/decide/__init__.py": "",
        "judge/findings.py": "",
        **files,
    }.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(source, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"parse/a.py": "from scoring.judge.findings import Finding\n"},
            "scoring.parse.a -> scoring.judge.findings",
        ),
        (
            {"parse/a.py": "def f():\n    from ..judge import findings\n"},
            "scoring.parse.a -> scoring.judge",
        ),
        ({"parse/a.py": "from scoring import judge\n"}, "scoring.parse.a -> scoring.judge"),
        (
            {"judge/checks/c.py": "import scoring.judge.decide.labels as labels\n"},
            "scoring.judge.checks.c -> scoring.judge.decide.labels",
        ),
        (
            {
                "judge/decide/d.py": "from scoring.judge import helper\n",
                "judge/helper.py": "from scoring.judge.checks import c\n",
                "judge/checks/c.py": "",
            },
            "scoring.judge.decide.d -> scoring.judge.helper -> scoring.judge.checks",
        ),
        ({"tree.py": "from agent.state import GradeState\n"}, "scoring.tree imports agent.state"),
    ],
)
def test_the_scan_sees_a_wrong_import(tmp_path, files, expected):
    found = violations(_tree(tmp_path, files))
    assert any(v.startswith(expected) for v in found), found


def test_project_imports_respect_the_layers():
    assert layer_violations(project_graph(ROOT)) == []


def test_no_import_cycle():
    assert cycles(project_graph(ROOT)) == []


def test_no_module_imports_another_modules_private_names():
    assert private_imports(ROOT) == []


def test_scoring_has_few_top_level_modules():
    assert len(scoring_top_level(ROOT)) <= MAX_SCORING_TOP_LEVEL, scoring_top_level(ROOT)


def test_the_project_scan_covers_every_package():
    """A rename that left a package out would pass every rule without checking it."""
    graph = project_graph(ROOT)
    assert {m.split(".")[0] for m in graph} == set(PACKAGES)
    assert "server.cli" in graph and "eval_sets.cli" in graph


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    for package in PROJECT:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("", encoding="utf-8")
    for name, source in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(source, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"server/cli.py": "from eval_sets.cli import register\n"},
            "server.cli imports eval_sets.cli",
        ),
        (
            {"server/routes.py": "def f():\n    import eval_sets.examples\n"},
            "server.routes imports eval_sets.examples",
        ),
        (
            {"eval_sets/bench.py": "from tests.fakes.openai_server import FakeOpenAI\n"},
            "eval_sets.bench imports tests.fakes",
        ),
        (
            {"agent/graph.py": "from server.schemas import X\n"},
            "agent.graph imports server.schemas",
        ),
        (
            {"scoring/a.py": "from prompts.render import fence\n"},
            "scoring.a imports prompts.render",
        ),
    ],
)
def test_the_scan_sees_an_import_against_the_layers(tmp_path, files, expected):
    found = layer_violations(project_graph(_project(tmp_path, files)))
    assert any(v.startswith(expected) for v in found), found


def test_the_layers_allow_imports_downwards(tmp_path):
    root = _project(
        tmp_path,
        {
            "agent/a.py": "from scoring.x import y\nfrom prompts import render\n",
            "server/s.py": "from agent.a import z\nfrom scoring import x\n",
            "eval_sets/e.py": "from server.s import q\nfrom agent import a\nimport scoring.x\n",
            "tests/t.py": "from eval_sets.e import q\n",
        },
    )
    assert layer_violations(project_graph(root)) == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {
                "eval_sets/a.py": "from eval_sets.b import x\n",
                "eval_sets/b.py": "from eval_sets import a\n",
            },
            "eval_sets.a -> eval_sets.b -> eval_sets.a",
        ),
        (
            {
                "agent/a.py": "import agent.b\n",
                "agent/b.py": "import agent.c\n",
                "agent/c.py": "def f():\n    from .a import x\n",
            },
            "agent.a -> agent.b -> agent.c -> agent.a",
        ),
    ],
)
def test_the_scan_reports_an_import_cycle(tmp_path, files, expected):
    assert cycles(project_graph(_project(tmp_path, files))) == [expected]


def test_a_package_importing_its_own_modules_is_no_cycle(tmp_path):
    root = _project(
        tmp_path,
        {
            "eval_sets/metrics/__init__.py": "from eval_sets.metrics.m import f\n",
            "eval_sets/metrics/m.py": "from eval_sets.metrics.n import g\n",
            "eval_sets/metrics/n.py": "import math\n",
        },
    )
    assert cycles(project_graph(root)) == []


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"eval_sets/soak.py": "from eval_sets.service_bench import FAKE, _percentile\n"},
            "eval_sets.soak imports eval_sets.service_bench._percentile",
        ),
        (
            {"tests/test_x.py": "def test():\n    from eval_sets.runner.summary import _graded\n"},
            "tests.test_x imports eval_sets.runner.summary._graded",
        ),
        (
            {"eval_sets/a.py": "from eval_sets.loaders._io import read\n"},
            "eval_sets.a imports eval_sets.loaders._io.read",
        ),
        (
            {"scoring/j/c.py": "from ..p.knowns import _Equation\n", "scoring/j/__init__.py": ""},
            "scoring.j.c imports scoring.p.knowns._Equation",
        ),
    ],
)
def test_the_scan_sees_a_private_import(tmp_path, files, expected):
    assert private_imports(_project(tmp_path, files)) == [expected]


def test_a_package_may_use_its_private_modules(tmp_path):
    root = _project(
        tmp_path,
        {
            "eval_sets/loaders/_io.py": "def _x(): ...\n",
            "eval_sets/loaders/a.py": "from eval_sets.loaders._io import read\n",
            "eval_sets/b.py": "from eval_sets.loaders import a\nimport os._x\n",
        },
    )
    assert private_imports(root) == []


def test_the_scan_counts_scoring_top_level_modules(tmp_path):
    root = _project(
        tmp_path,
        {f"scoring/m{i}.py": "" for i in range(5)}
        | {f"scoring/p{i}/__init__.py": "" for i in range(4)}
        | {"scoring/data/calibration.json": "{}"},
    )
    assert len(scoring_top_level(root)) == 9


def test_the_scan_allows_imports_that_run_the_right_way(tmp_path):
    root = _tree(
        tmp_path,
        {
            "parse/a.py": "from scoring.parse import b\nfrom . import b as c\n",
            "parse/b.py": "import re\n",
            "judge/checks/c.py": "from scoring.parse.a import x\nfrom ..findings import F\n",
            "judge/decide/d.py": "from scoring.judge.findings import F\n",
            "judge/collect.py": "from scoring.judge.checks import c\n",
        },
    )
    assert violations(root) == []
