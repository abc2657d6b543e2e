"""What every part of the store shares: the database engine, times in UTC, SQLite's
connection settings, and inserting names that may not exist yet."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

__all__ = ["UTC", "StoreBase", "aware", "sqlite_pragmas"]

UTC = dt.UTC


class StoreBase:
    """The engine the store's parts (accounts, tables, leases, hands, ...) query through."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.is_sqlite = engine.dialect.name == "sqlite"
        self.autocommit = engine.execution_options(isolation_level="AUTOCOMMIT")

    async def _insert_missing(
        self, conn: AsyncConnection, model: Any, key: str, values: set[str], extra: dict[str, Any]
    ) -> None:
        now = dt.datetime.now(UTC)
        rows = [{key: v, "created_at": now, **extra} for v in sorted(values)]
        make = sqlite_insert if self.is_sqlite else pg_insert
        # Another process may create the same name at the same moment: keep theirs.
        await conn.execute(make(model.__table__).on_conflict_do_nothing(), rows)


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Foreign keys are off by default in SQLite. WAL keeps readers and the writer apart
    # and, with synchronous=NORMAL, loses no committed transaction when the process dies.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def aware(moment: dt.datetime) -> dt.datetime:
    # SQLite hands back naive datetimes; every time we store is UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
