"""Inside `server/`, imports run down the FastAPI template's floors (docs/architecture.md 1).

`core/` (settings, security, errors, ...) uses no other part of the service; the services and
the grade store use `core/`; the routes (`api/`) use both; only the assembly (`main`,
`lifespan`) and the commands (`cli`, `serve`) use the routes. A scan of each module's import
statements, so an import inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[2] / "server"

# (modules the rule covers, modules they must not import, why)
FLOORS = [
    (
        "server.core",
        (
            "server.api",
            "server.services",
            "server.store",
            "server.main",
            "server.lifespan",
            "server.cli",
            "server.serve",
        ),
        "core is the floor: what every part of the service shares",
    ),
    (
        "server.services",
        ("server.api", "server.main", "server.lifespan", "server.cli", "server.serve"),
        "services serve the routes, not the other way",
    ),
    (
        "server.store",
        (
            "server.api",
            "server.services",
            "server.main",
            "server.lifespan",
            "server.cli",
            "server.serve",
        ),
        "the store serves the routes and services",
    ),
    (
        "server.api",
        ("server.main", "server.lifespan", "server.cli", "server.serve"),
        "routes are assembled by main; they do not reach up to it",
    ),
]


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def server_imports(root: Path) -> dict[str, set[str]]:
    """Each module of the `server` package under `root` -> the `server.*` modules it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
        graph[module] = {n for n in names if _within(n, "server")}
    return graph


def floor_violations(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{module} imports {name} ({why})"
        for covered, banned, why in FLOORS
        for module, names in graph.items()
        if _within(module, covered)
        for name in sorted(names)
        if any(_within(name, b) for b in banned)
    ]


def test_the_service_imports_run_down_its_floors():
    assert floor_violations(server_imports(SERVER)) == []


def test_every_floor_covers_a_package_with_modules():
    graph = server_imports(SERVER)
    for covered, _, _ in FLOORS:
        assert [m for m in graph if _within(m, covered) and m != covered], covered


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from server.api.deps import SettingsDep\n", "server.core.x imports server.api.deps"),
        ("def f():\n    import server.main\n", "server.core.x imports server.main"),
    ],
)
def test_the_scan_sees_an_import_up_the_floors(tmp_path, source, expected):
    root = tmp_path / "server"
    (root / "core").mkdir(parents=True)
    (root / "core" / "x.py").write_text(source)
    found = floor_violations(server_imports(root))
    assert len(found) == 1 and found[0].startswith(expected), found


def test_the_scan_allows_imports_down_the_floors(tmp_path):
    root = tmp_path / "server"
    (root / "api").mkdir(parents=True)
    (root / "api" / "deps.py").write_text(
        "from server.core.settings import Settings\n"
        "from server.services.grading import GradingService\n"
    )
    assert floor_violations(server_imports(root)) == []
