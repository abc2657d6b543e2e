"""Alembic migrations, run on the store's own async engine.

``migrations/`` holds the Alembic environment and versions. These helpers hand Alembic
a connection from our engine (Alembic's "connection sharing" recipe), so migrating works
inside a running event loop and on any database URL we support.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

# An installed wheel carries the migrations inside the package; a checkout (and an
# editable install) has them at its root.
_PACKAGED = Path(__file__).resolve().parent / "migrations"
MIGRATIONS = _PACKAGED if _PACKAGED.is_dir() else Path(__file__).resolve().parents[2] / "migrations"


class MigrationError(Exception):
    """The database schema is not the one this code expects."""


def alembic_config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def head() -> str:
    """The newest migration's revision."""
    revision = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert revision is not None
    return revision


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Migrate the database up to ``revision``."""
    async with engine.begin() as conn:
        await conn.run_sync(lambda sync: command.upgrade(alembic_config(sync), revision))


async def downgrade(engine: AsyncEngine, revision: str = "-1") -> None:
    """Migrate the database down to ``revision`` (``"base"`` removes every table)."""
    async with engine.begin() as conn:
        await conn.run_sync(lambda sync: command.downgrade(alembic_config(sync), revision))


async def current(engine: AsyncEngine) -> str | None:
    """The database's revision, or None for an empty database."""
    async with engine.connect() as conn:
        return await conn.run_sync(
            lambda sync: MigrationContext.configure(sync).get_current_revision()
        )


async def check_current(engine: AsyncEngine) -> None:
    """Raise :class:`MigrationError` unless the database is at the newest migration."""
    found, wanted = await current(engine), head()
    if found != wanted:
        raise MigrationError(
            f"the database is at revision {found or 'none (empty)'}, this pokerroom needs "
            f"{wanted}: run pokerroom db upgrade --db URL"
        )
