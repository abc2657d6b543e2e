"""The chip ledger: every change to a player's balance at a table (a buy-in, a hand, a
cash-out), so that what each player has at a table is the sum of their entries there.

A hand's entries are written with the hand (:mod:`server.store.records`); these are the
rest, and the balances a table owes its players."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store.models import LEDGER, LedgerEntry

__all__ = ["LedgerRow", "balances", "entry", "pay_back"]

LedgerRow = dict[str, Any]
"""A balance change outside a hand (a buy-in, a cash-out): a row of the ledger."""


def entry(player_id: int, table_id: int, amount: int, reason: str, at: dt.datetime) -> LedgerRow:
    """A ledger row for a balance change outside a hand."""
    return {"player_id": player_id, "table_id": table_id, "hand_id": None, "amount": amount,
            "reason": reason, "created_at": at}  # fmt: skip


async def balances(conn: AsyncConnection, table_id: int) -> dict[int, int]:
    """Player id -> the chips the ledger says they have at the table (none at zero)."""
    owed = await conn.execute(
        select(LedgerEntry.player_id, func.sum(LedgerEntry.amount))
        .where(LedgerEntry.table_id == table_id)
        .group_by(LedgerEntry.player_id)
        .having(func.sum(LedgerEntry.amount) != 0)
    )
    return {int(player): int(chips) for player, chips in owed.all()}


async def pay_back(
    conn: AsyncConnection, table_id: int, chips: dict[int, int], reason: str, at: dt.datetime
) -> None:
    """Cash each player out of the table (in the caller's transaction): an entry of minus
    their ``chips``, in player order."""
    await conn.execute(
        insert(LEDGER),
        [entry(player, table_id, -amount, reason, at) for player, amount in sorted(chips.items())],
    )
