"""engine/__init__.py loads the table, hands, events and histories on first use (PEP 562);
every public name works as if it had been imported eagerly."""

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[2]
INIT = ROOT / "engine" / "__init__.py"


def fresh(code: str) -> object:
    """What ``code`` (which prints one JSON value) prints in a fresh interpreter."""
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return json.loads(result.stdout)


def test_importing_engine_loads_only_cards_evaluator_and_equity() -> None:
    loaded = fresh("import engine, json, sys; print(json.dumps(sorted(sys.modules)))")
    assert isinstance(loaded, list)
    mine = {name for name in loaded if name.startswith("engine.")}
    assert mine == {
        "engine.cards", "engine.equity", "engine.errors", "engine.evaluator", "engine.hand_classes",
    }  # fmt: skip


def sources(nodes: list[ast.stmt]) -> dict[str, str]:
    """Each name the ``from ... import`` statements among ``nodes`` bind, and its module."""
    found = {}
    for node in nodes:
        if isinstance(node, ast.ImportFrom) and node.module and node.module != "__future__":
            for alias in node.names:
                module = f"engine.{alias.name}" if node.module == "engine" else node.module
                found[alias.name] = module
    return found


TREE = ast.parse(INIT.read_text(encoding="utf-8"))
TYPE_CHECKING_BLOCK = next(
    n for n in TREE.body if isinstance(n, ast.If) and ast.unparse(n.test) == "TYPE_CHECKING"
)


def test_every_public_name_is_what_its_module_defines() -> None:
    where = sources(TREE.body) | sources(TYPE_CHECKING_BLOCK.body)
    for name in engine.__all__:
        module = importlib.import_module(where[name])
        expected = getattr(module, name, module)  # history is the submodule itself
        assert getattr(engine, name) is expected, name
    namespace: dict[str, object] = {}
    exec("from engine import *", namespace)
    assert set(engine.__all__) <= set(namespace)
    assert set(engine.__all__) <= set(dir(engine))


def test_the_type_checker_sees_every_public_name_and_no_other() -> None:
    """What mypy sees (the eager imports and those under ``if TYPE_CHECKING``) is
    ``__all__``, each name once."""
    eager, lazy = sources(TREE.body), sources(TYPE_CHECKING_BLOCK.body)
    eager = {name: module for name, module in eager.items() if module.startswith("engine")}
    assert not eager.keys() & lazy.keys()
    assert eager.keys() | lazy.keys() == set(engine.__all__)
    assert {module for module in lazy.values() if module != "engine.history"} == set(
        engine._LAZY_MODULES
    )


def test_equity_is_the_function_whichever_is_imported_first() -> None:
    """``equity`` names both a submodule and its function; the function wins, even when the
    submodule is imported before the package's name is looked up."""
    code = (
        "import json, engine.equity, engine.history\n"
        "from engine import equity, history\n"
        "import engine\n"
        "print(json.dumps([callable(equity), engine.equity is equity,"
        " type(equity).__name__, history.__name__]))"
    )
    assert fresh(code) == [True, True, "function", "engine.history"]
