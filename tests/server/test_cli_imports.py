"""The hand tools start fast: each runs in a fresh process that never imports the
database, the network, the server or rich (see server/cli/__init__.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED_DATA

ROOT = Path(__file__).resolve().parents[2]
PHH = SHARED_DATA / "phh"

# Runs one command as `pokerroom` would, then writes the names of every module imported.
PROBE = """
import json, sys
from server.cli import main
try:
    main(json.loads(sys.argv[1]))
except SystemExit:  # --help, and argparse's own errors
    pass
with open(sys.argv[2], "w") as out:
    json.dump(sorted(sys.modules), out)
"""

# What only the database, the network, the server or a terminal needs.
HEAVY = (
    "sqlalchemy", "alembic", "aiosqlite", "asyncpg", "websockets", "aiomqtt", "pydantic",
    "orjson", "rich", "matplotlib", "server.app", "server.store", "server.tables", "server.bus",
    "server.bots", "server.web", "server.protocol", "server.export", "server.fairness",
    "server.tournaments", "server.cli.hands", "server.cli.serve", "server.cli.bot",
)  # fmt: skip
# What the tools that only name hands do without (replay needs them, and loads them).
HISTORY = ("engine.history", "engine.hand", "engine.table", "engine.events")


def imported(tmp_path: Path, *argv: str) -> set[str]:
    """The modules a fresh process imports to run ``pokerroom ARGV``, piped."""
    out = tmp_path / "modules.json"
    subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argv), str(out)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    return set(json.loads(out.read_text()))


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["eval", "As", "Ks", "Qs", "Js", "Ts"],
        ["eval", "--json", "As Ks Qs Js Xx"],  # a bad card: the error path too
        ["compare", "2H 2D AH KC 3D", "4H 4C JC TC 3H"],
        ["compare", "--help"],
        ["demo", "--hands", "1", "--seed", "1"],
        ["equity", "AhKh", "QsQd", "--samples", "100", "--seed", "1"],
        ["showdown", str(SHARED_DATA / "euler54" / "poker.txt")],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_hand_tools_import_no_database_server_history_or_rich(
    tmp_path: Path, argv: list[str]
) -> None:
    modules = imported(tmp_path, *argv)
    assert loaded(modules, HEAVY + HISTORY) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["eval", "As", "Ks", "Qs", "Js", "Ts"],
        ["compare", "2H 2D AH KC 3D", "4H 4C JC TC 3H"],
        ["showdown", str(SHARED_DATA / "euler54" / "poker.txt")],
    ],
    ids=lambda argv: argv[0],
)
def test_hand_evaluation_imports_no_numpy(tmp_path: Path, argv: list[str]) -> None:
    """numpy is for the batch paths (equity, rank_batch): about a tenth of a second a
    hand tool does not need to wait."""
    assert loaded(imported(tmp_path, *argv), ("numpy",)) == []


def test_equity_imports_numpy(tmp_path: Path) -> None:
    modules = imported(tmp_path, "equity", "AhKh", "QsQd", "--samples", "100", "--seed", "1")
    assert "numpy" in modules


def test_help_imports_no_command_module_and_no_engine(tmp_path: Path) -> None:
    modules = imported(tmp_path, "--help")
    assert loaded(modules, ("engine", "numpy", "server.cli.tools")) == []


def test_replay_loads_histories_but_no_database_server_or_rich_when_piped(
    tmp_path: Path,
) -> None:
    modules = imported(tmp_path, "replay", str(PHH / "pluribus" / "30" / "0.phh"))
    assert "engine.history" in modules
    assert loaded(modules, HEAVY) == []


def test_the_probe_sees_what_a_command_imports(tmp_path: Path) -> None:
    """The same probe on a command that uses the database finds SQLAlchemy: an empty
    list above means the tools did not import it, not that the probe cannot tell."""
    modules = imported(tmp_path, "db", "current", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert {"sqlalchemy", "server.store", "server.cli.hands"} <= modules
