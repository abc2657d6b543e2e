"""Table leases: which server process hosts a live table, until when, and where its
clients connect (docs/operations.md, "Several server processes"). A process takes a table
whose lease has expired, settling what a host that died left behind."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, delete, func, insert, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store import ledger
from server.store.base import UTC, StoreBase, aware
from server.store.hands import last_stored_number
from server.store.models import LEASES, VOIDS, HandVoid, TableLease, TableRecord
from server.store.tables import read_table, write_config

__all__ = ["Lease", "Leases"]


@dataclass(frozen=True)
class Lease:
    """A table this process now hosts (:meth:`Store.take_table`)."""

    table_id: int
    name: str
    config: dict[str, Any]
    last_hand_number: int
    """Hands from here on are numbered after this one (a voided hand's number included:
    a number is never dealt twice)."""
    voided: int | None
    """The hand number voided because the table's last host stopped without cashing its
    players out, if it did."""
    refunds: dict[int, int]
    """Player id -> the chips the ledger said they had at the table, given back."""


class Leases(StoreBase):
    """The ``table_leases`` table: :class:`server.store.Store`'s queries about leases."""

    async def take_table(
        self,
        table_id: int,
        holder: str,
        address: str,
        seconds: float,
        config: dict[str, Any] | None = None,
    ) -> Lease | None:
        """Lease the table to ``holder`` for ``seconds``, unless another process holds a
        lease on it that has not expired: then None.

        Taking a table whose last host stopped without cashing its players out (it died)
        settles what it left, in the same transaction: each player with chips at the
        table by the ledger (buy-ins, hands stored, cash-outs) gets them back, and the
        hand after the last stored one is recorded as void (``hand_voids``). ``config``
        replaces the table's stored configuration.
        """
        now = dt.datetime.now(UTC)
        until = now + dt.timedelta(seconds=seconds)
        lease = {"holder": holder, "address": address, "expires_at": until}
        async with self.engine.begin() as conn:
            last_holder = await self._claim(conn, table_id, lease, now)
            if last_holder is None:
                return None
            if config is not None:
                await write_config(conn, table_id, config)
            name, stored_config = await read_table(conn, table_id)
            last = await _last_number(conn, table_id)
            refunds = await ledger.balances(conn, table_id)
            voided = None
            if refunds:
                voided = last = last + 1
                await _void(conn, table_id, voided, holder=last_holder, refunds=refunds, now=now)
        return Lease(table_id, name, stored_config, last, voided, refunds)

    async def _claim(
        self, conn: AsyncConnection, table_id: int, lease: dict[str, Any], now: dt.datetime
    ) -> str | None:
        """Set the table's lease to ``lease`` in this transaction, if nobody holds a live
        one: then the holder a hand voided now is recorded under (the last one, or the new
        one for a table never leased); else None."""
        current = await _locked_lease(conn, table_id)
        if current is None:
            make = sqlite_insert if self.is_sqlite else pg_insert
            added = await conn.execute(
                make(LEASES).on_conflict_do_nothing(), {"table_id": table_id, **lease}
            )
            # Not added: another process took it a moment ago.
            return str(lease["holder"]) if added.rowcount == 1 else None
        if aware(current.expires_at) >= now:
            return None  # a live lease, whoever holds it (this holder included)
        # Compare and set: only if nobody took it since it was read (SQLite locks nothing
        # on reading). Of two takers, the second changes no row.
        taken = await conn.execute(
            update(LEASES)
            .where(
                LEASES.c.table_id == table_id,
                LEASES.c.holder == current.holder,
                LEASES.c.expires_at < now,
            )
            .values(**lease)
        )
        return str(current.holder) if taken.rowcount == 1 else None

    async def renew_leases(self, holder: str, seconds: float) -> set[int]:
        """Extend every lease ``holder`` has; the tables it still holds."""
        until = dt.datetime.now(UTC) + dt.timedelta(seconds=seconds)
        async with self.engine.begin() as conn:
            rows = await conn.execute(
                update(LEASES)
                .where(LEASES.c.holder == holder)
                .values(expires_at=until)
                .returning(LEASES.c.table_id)
            )
            return {int(table_id) for table_id in rows.scalars()}

    async def hosts(self, *, other_than: str) -> dict[str, str]:
        """Tables other processes host now: table id (its name) -> the host's address."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(TableRecord.name, TableLease.address)
                .join(TableLease, TableLease.table_id == TableRecord.id)
                .where(TableLease.holder != other_than)
                .where(TableLease.expires_at >= dt.datetime.now(UTC))
            )
            return {name: address for name, address in rows.all()}  # noqa: C416

    async def expired_leases(self) -> list[str]:
        """Tables (by id, their name) whose host has not renewed its lease in time: free
        to take over."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(TableRecord.name)
                .join(TableLease, TableLease.table_id == TableRecord.id)
                .where(TableLease.expires_at < dt.datetime.now(UTC))
            )
            return list(rows.scalars())

    async def release_table(self, table_id: int, holder: str) -> None:
        """Give a table's lease up (the table has stopped and cashed everyone out)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(LEASES).where(LEASES.c.table_id == table_id, LEASES.c.holder == holder)
            )


async def _locked_lease(conn: AsyncConnection, table_id: int) -> Row[str, dt.datetime] | None:
    """The table's lease (holder, expires_at), if it has one. Locked (PostgreSQL): of two
    processes taking the same table, one waits and then finds it taken; a hand being
    written for it finishes first."""
    found = await conn.execute(
        select(TableLease.holder, TableLease.expires_at)
        .where(TableLease.table_id == table_id)
        .with_for_update()
    )
    return found.first()


async def _last_number(conn: AsyncConnection, table_id: int) -> int:
    """The table's last hand number, stored or voided."""
    stored = await last_stored_number(conn, table_id)
    voided = await conn.execute(
        select(func.max(HandVoid.hand_number)).where(HandVoid.table_id == table_id)
    )
    return max(stored, voided.scalar() or 0)


async def _void(
    conn: AsyncConnection,
    table_id: int,
    hand_number: int,
    *,
    holder: str,
    refunds: dict[int, int],
    now: dt.datetime,
) -> None:
    """Record hand ``hand_number`` of the table as void, and pay each player back."""
    await ledger.pay_back(conn, table_id, refunds, "void_cash_out", now)
    await conn.execute(
        insert(VOIDS),
        {"table_id": table_id, "hand_number": hand_number, "holder": holder,
         "refunds": {str(p): c for p, c in sorted(refunds.items())}, "voided_at": now},
    )  # fmt: skip
