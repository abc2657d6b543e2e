"""The hand-history store: SQLAlchemy 2.x async over SQLite (aiosqlite) or PostgreSQL
(asyncpg).

Open it with ``async with Store.open(url) as store:``. A finished hand is written in one
transaction, rows inserted with SQLAlchemy Core (the ORM's unit of work costs several
times the CPU for these plain inserts); reads use the typed models.

:class:`Store` is composed of one part per aggregate, each in its own module: accounts
(players), tables, leases, hands (with the hand writer), imports, tournaments and
pruning (what never mattered).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

from sqlalchemy import event, select
from sqlalchemy.ext.asyncio import create_async_engine

from server.store import migrate
from server.store.base import sqlite_pragmas
from server.store.errors import StoreError
from server.store.imports import Imports
from server.store.leases import Leases
from server.store.models import Deployment
from server.store.pruning import Pruning
from server.store.tournaments import Tournaments

__all__ = ["PG_CONNECT_SECONDS", "PG_STATEMENT_SECONDS", "SQLITE_WAIT_SECONDS", "Store"]

SQLITE_WAIT_SECONDS = 30.0
"""How long a connection of the store waits for another process's write to SQLite."""
PG_CONNECT_SECONDS = 10.0
"""How long connecting to PostgreSQL may take before it counts as unavailable."""
PG_STATEMENT_SECONDS = 30.0
"""How long one PostgreSQL statement may take before it counts as unavailable (the hand
writer has its own, shorter deadline: ``HandWriter.attempt_seconds``)."""


class Store(Imports, Leases, Tournaments, Pruning):
    """Hands, players, tables and the chip ledger in one database. (:class:`Imports`
    brings in the accounts, tables and hands it stores into.)"""

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls, url: str, *, upgrade: bool | None = None, pool_size: int = 10
    ) -> AsyncIterator[Store]:
        """Connect, check the schema, and dispose of the connections on the way out.

        An SQLite database is upgraded to the latest migration (``upgrade=None`` means
        "only for SQLite"); any other must already be at it, or :class:`StoreError` says
        to run ``pokerroom db upgrade``.
        """
        options: dict[str, Any] = {}
        if not url.startswith("sqlite"):
            # A network that goes silent answers nothing, not even an error: every
            # connection attempt and statement has a deadline, and a pooled connection
            # is checked before use (one the outage broke is replaced, not failed on).
            options = {
                "pool_size": pool_size, "max_overflow": pool_size, "pool_pre_ping": True,
                "connect_args": {"timeout": PG_CONNECT_SECONDS,
                                 "command_timeout": PG_STATEMENT_SECONDS},
            }  # fmt: skip
        else:  # another process (a server, the CLI) writing: wait our turn, quietly
            options = {"connect_args": {"timeout": SQLITE_WAIT_SECONDS}}
        engine = create_async_engine(url, **options)
        if engine.dialect.name == "sqlite":
            event.listen(engine.sync_engine, "connect", sqlite_pragmas)
        try:
            if upgrade if upgrade is not None else engine.dialect.name == "sqlite":
                await migrate.upgrade(engine)
            else:
                await migrate.check_current(engine)
            yield cls(engine)
        finally:
            await engine.dispose()

    async def deployment(self) -> str:
        """This database's deployment id, which every message its servers put on a shared
        broker carries (migration 0005 draws it)."""
        async with self.engine.connect() as conn:
            found = (await conn.execute(select(Deployment.id))).scalar()
        if found is None:
            raise StoreError("the database has no deployment id: run pokerroom db upgrade")
        return str(found)
