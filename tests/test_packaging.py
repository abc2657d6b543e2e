"""What `pip install pokerroom` gets: the wheel carries everything the commands need."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from alembic.script import ScriptDirectory

from server.store.migrate import alembic_config

ROOT = Path(__file__).resolve().parents[1]


def test_an_installed_wheel_migrates_a_database(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
         "--disable-pip-version-check", "--wheel-dir", str(tmp_path / "dist"), str(ROOT)],
        check=True,
    )  # fmt: skip
    site = tmp_path / "site"
    with zipfile.ZipFile(next((tmp_path / "dist").glob("pokerroom-*.whl"))) as wheel:
        wheel.extractall(site)
    # The unpacked wheel first on the path (its dependencies from this environment), run
    # from elsewhere than the checkout: the migrations must come from the wheel.
    env = {**os.environ, "PYTHONPATH": str(site)}
    upgrade = subprocess.run(
        [sys.executable, "-m", "server.cli", "db", "upgrade", "--db",
         f"sqlite:///{tmp_path / 'fresh.db'}"],
        env=env, cwd=tmp_path, capture_output=True, text=True, check=True,
    )  # fmt: skip
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert upgrade.stdout.strip() == f"upgrade: base -> {head}"
    where = subprocess.run(
        [sys.executable, "-c", "from server.store.migrate import MIGRATIONS; print(MIGRATIONS)"],
        env=env, cwd=tmp_path, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert Path(where.stdout.strip()).is_relative_to(site)
