"""The table's shape (docs/architecture.md, "The table core"): a synchronous core of
parts that own their state, under an asyncio pump; no class of ours under another to
share state, no command found by its name, no class that needs scrolling."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

from server import tables
from server.tables import TableCore, TableRunner

TABLES = Path(tables.__file__).parent
CLASS_LINES = 300


def _classes() -> list[tuple[str, ast.ClassDef]]:
    found = []
    for path in sorted(TABLES.glob("*.py")):
        tree = ast.parse(path.read_text())
        found += [(path.name, node) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    return found


def test_no_class_in_the_tables_is_over_300_lines() -> None:
    over = []
    for name, node in _classes():
        assert node.end_lineno is not None
        length = node.end_lineno - node.lineno + 1
        if length > CLASS_LINES:
            over.append(f"{name}: {node.name} is {length} lines")
    assert not over, over


def test_no_class_in_the_tables_inherits_from_another_of_ours() -> None:
    ours = {node.name for _, node in _classes()}
    heirs = [
        f"{name}: {node.name}({base.id})"
        for name, node in _classes()
        for base in node.bases
        if isinstance(base, ast.Name) and base.id in ours
    ]
    assert not heirs
    assert TableRunner.__mro__ == (TableRunner, object)
    assert TableCore.__mro__ == (TableCore, object)


def test_no_command_is_found_by_its_name() -> None:
    """Messages are routed by type (TableCore.routes) and host controls by the wire's
    action in a table (HostControls.controls): no ``_cmd_`` method, no ``getattr`` of a
    name made from a message."""
    for path in sorted(TABLES.glob("*.py")):
        source = path.read_text()
        assert "_cmd_" not in source, path.name
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "getattr":
                name = node.args[1]
                assert isinstance(name, ast.Constant), f"{path.name}:{node.lineno}"


def test_the_core_neither_waits_nor_reads_a_clock() -> None:
    """Everything but the runner and the hand store it awaits is synchronous, and is
    given the time."""
    for path in sorted(TABLES.glob("*.py")):
        if path.name in ("runner.py", "storing.py"):
            continue
        source = path.read_text()
        tree = ast.parse(source)
        assert not any(isinstance(n, ast.AsyncFunctionDef | ast.Await) for n in ast.walk(tree))
        assert "import asyncio" not in source and "time.monotonic()" not in source, path.name
    assert not inspect.iscoroutinefunction(TableCore.handle)
