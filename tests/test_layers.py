"""No import runs up the house: engine, then exports and the store, then tables, then
the server, then the CLI (docs/architecture.md draws the same rooms).

Every import counts, a lazy one inside a function too; only imports for type checkers
(``if TYPE_CHECKING:``) may look up, since they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]

LAYERS: list[tuple[str, list[str]]] = [
    ("engine", ["engine"]),
    # A stored hand rendered, or counted (statistics): they need no database.
    (
        "exports",
        ["server.errors", "server.export", "server.stats", "server.settle", "server.compute"],
    ),
    (
        "store",
        ["server.store", "server.bus", "server.config", "server.protocol", "server.recording"],
    ),
    (
        "tables",
        [
            "server.fairness",
            "server.tables",
            "server.remote",
            "server.bots",
            "server.tournaments",
            "server.acpc",  # the ACPC dealer's matches: on the engine alone
            "server.slumbot",  # the Slumbot-style API's hands: engine, bots and store
        ],
    ),
    (
        "server",
        [
            "server.settings",
            "server.connections",
            "server.players",
            "server.hosting",
            "server.housekeeping",
            "server.lobby",
            "server.routing",
            "server.http",
            "server.web",
            "server.app",
            "server.tournaments.registry",
        ],
    ),
    ("CLI", ["server.cli"]),
]


def layer_of(module: str) -> int:
    """The layer of ``module``: the one naming its longest prefix."""
    best, best_len = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best_len:
                best, best_len = i, len(prefix)
    return best


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, module) of every import that runs, type-checking blocks left out."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for branch in node.orelse:
                visit(branch)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in ("server", "engine"):  # from server import protocol, web
                found.extend((node.lineno, f"{node.module}.{a.name}") for a in node.names)
            else:
                found.append((node.lineno, node.module))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def test_every_module_has_a_layer() -> None:
    for path in sorted([*ROOT.glob("engine/**/*.py"), *ROOT.glob("server/**/*.py")]):
        name = _module_name(path)
        if name != "server":
            assert layer_of(name) >= 0, f"{name} is in no layer of tests/test_layers.py"


def test_no_import_runs_up_the_house() -> None:
    upward = []
    for path in sorted([*ROOT.glob("engine/**/*.py"), *ROOT.glob("server/**/*.py")]):
        importer = _module_name(path)
        if importer == "server":
            continue
        for line, module in _imports(ast.parse(path.read_text())):
            if module.split(".")[0] not in ("engine", "server") or module == "server":
                continue
            if layer_of(module) > layer_of(importer):
                upward.append(
                    f"{path.relative_to(ROOT)}:{line}: {importer} ({LAYERS[layer_of(importer)][0]})"
                    f" imports {module} ({LAYERS[layer_of(module)][0]})"
                )
    assert not upward, "\n".join(upward)


def test_the_check_sees_an_upward_import() -> None:
    tree = ast.parse("def f():\n    from server.app import PokerServer\n")
    ((_, module),) = _imports(tree)
    assert layer_of(module) > layer_of("server.store.accounts")
    guarded = ast.parse("if TYPE_CHECKING:\n    from server.app import PokerServer\n")
    assert _imports(guarded) == []
