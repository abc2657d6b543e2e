"""Tables: a name and a configuration (an ``engine.TableConfig`` as JSON); imported hands
go to a table of their own beside a live table of the same name."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from server.store import ledger
from server.store.base import StoreBase
from server.store.errors import StoreError
from server.store.models import HOST_ACTIONS, HostAction, Player, TableRecord

__all__ = ["HostActionRow", "Tables", "read_table", "write_config"]


@dataclass(frozen=True)
class HostActionRow:
    """A private table's host's control, as stored: who, what, about whom, when."""

    host: str
    action: str
    player: str | None
    details: dict[str, Any]
    at: dt.datetime


class Tables(StoreBase):
    """The ``tables`` table: :class:`server.store.Store`'s queries about tables."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__(engine)
        self._tables: dict[tuple[str, bool], int] = {}  # (name, imported): id

    async def ensure_table(
        self, name: str, config: dict[str, Any], *, imported: bool = False
    ) -> int:
        """The id of the table called ``name``, creating it with ``config`` if need be.
        Imported hands go to ``imported`` tables, apart from a live table of that name.
        Only imported tables' ids are kept here (an import asks once a hand): a live
        table where nothing happened may be deleted meanwhile (server/store/pruning.py),
        by this process or another."""
        key = (name, imported)
        if key not in self._tables:
            async with self.engine.begin() as conn:
                await self._insert_missing(
                    conn, TableRecord, "name", {name}, {"config": config, "imported": imported}
                )
                row = await conn.execute(
                    select(TableRecord.id).where(
                        TableRecord.name == name, TableRecord.imported == imported
                    )
                )
                table_id: int = row.scalar_one()
            if not imported:
                return table_id
            self._tables[key] = table_id
        return self._tables[key]

    async def table_config(self, table_id: int) -> dict[str, Any]:
        """A table's stored configuration."""
        async with self.engine.connect() as conn:
            found = await conn.execute(select(TableRecord.config).where(TableRecord.id == table_id))
            return dict(found.scalar_one())

    async def ledger_sessions(self, table: str) -> list[ledger.Session]:
        """The ledger of the live table called ``table``: each player's sessions there."""
        async with self.engine.connect() as conn:
            found = await conn.execute(
                select(TableRecord.id).where(TableRecord.name == table, ~TableRecord.imported)
            )
            table_id = found.scalar()
            if table_id is None:
                raise StoreError(f"no table {table!r} in this database")
            return await ledger.sessions(conn, table_id)

    async def record_host_action(
        self, table_id: int, host_id: int, action: str, player_id: int | None, *,
        details: dict[str, Any], at: dt.datetime,
    ) -> None:  # fmt: skip
        """Record a host's control at table ``table_id`` (docs/home-games.md)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(HOST_ACTIONS),
                {"table_id": table_id, "host_id": host_id, "action": action,
                 "player_id": player_id, "details": details, "created_at": at},
            )  # fmt: skip

    async def host_actions(self, table: str) -> list[HostActionRow]:
        """The host's controls at the live table called ``table``, in the order used."""
        async with self.engine.connect() as conn:
            host, about = Player.__table__.alias("host"), Player.__table__.alias("about")
            rows = await conn.execute(
                select(host.c.name, HostAction.action, about.c.name, HostAction.details,
                       HostAction.created_at)
                .join(TableRecord, TableRecord.id == HostAction.table_id)
                .join(host, host.c.id == HostAction.host_id)
                .outerjoin(about, about.c.id == HostAction.player_id)
                .where(TableRecord.name == table, ~TableRecord.imported)
                .order_by(HostAction.id)
            )  # fmt: skip
            return [HostActionRow(*row) for row in rows.all()]

    async def set_table_config(self, table_id: int, config: dict[str, Any]) -> None:
        """Replace a table's stored configuration (what a process taking it over reads)."""
        async with self.engine.begin() as conn:
            await write_config(conn, table_id, config)


async def write_config(conn: AsyncConnection, table_id: int, config: dict[str, Any]) -> None:
    """Replace a table's configuration (in the caller's transaction)."""
    await conn.execute(update(TableRecord).where(TableRecord.id == table_id).values(config=config))


async def read_table(conn: AsyncConnection, table_id: int) -> tuple[str, dict[str, Any]]:
    """A table's name and configuration (in the caller's transaction)."""
    found = await conn.execute(
        select(TableRecord.name, TableRecord.config).where(TableRecord.id == table_id)
    )
    name, config = found.one()
    return name, config
