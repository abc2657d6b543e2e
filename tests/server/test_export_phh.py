"""The exporters sit below the rest of the server, with the PHH fields they read."""

import ast
from pathlib import Path

import server.export
from server import fairness
from server.export import phh

EXPORT = Path(server.export.__file__).parent


def test_exporters_import_only_the_engine_and_each_other() -> None:
    """Exports sit below the store, the tables and the server: none of theirs imports
    anything of the server's but ``server.export`` (the standard library and the engine
    aside)."""
    for path in EXPORT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            else:
                continue
            for module in modules:
                if module.split(".")[0] == "server":
                    assert module.startswith("server.export"), f"{path.name} imports {module}"


def test_fairness_names_the_same_fields() -> None:
    assert (fairness.TABLE_FIELD, fairness.HAND_FIELD) == (phh.TABLE_FIELD, phh.HAND_FIELD)
    assert (fairness.COMMITMENT_FIELD, fairness.SEED_FIELD) == (
        phh.COMMITMENT_FIELD,
        phh.SEED_FIELD,
    )
