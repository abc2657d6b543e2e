"""The chip ledger: every change to a player's balance at a table (a buy-in, a hand, a
cash-out), so that what each player has at a table is the sum of their entries there.

A hand's entries are written with the hand (:mod:`server.store.records`); these are the
rest, and the balances a table owes its players."""

from __future__ import annotations

import csv
import datetime as dt
import io
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from server.store.models import LEDGER, LedgerEntry, Player

__all__ = ["LedgerRow", "Session", "balances", "entry", "pay_back", "sessions"]

CSV_COLUMNS = (
    "player_nickname",
    "player_id",
    "session_start_at",
    "session_end_at",
    "buy_in",
    "buy_out",
    "stack",
    "net",
)
"""PokerNow's ledger columns, in its order: the spreadsheets people keep read these."""

LedgerRow = dict[str, Any]
"""A balance change outside a hand (a buy-in, a cash-out): a row of the ledger."""


def entry(player_id: int, table_id: int, amount: int, reason: str, at: dt.datetime) -> LedgerRow:
    """A ledger row for a balance change outside a hand, with its own ``write_id``."""
    return {"player_id": player_id, "table_id": table_id, "hand_id": None, "amount": amount,
            "reason": reason, "created_at": at, "write_id": uuid.uuid4().hex}  # fmt: skip


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


@dataclass
class Session:
    """A player's time at a table, from the buy-in that found them with no chips there to
    the cash-out that left them with none (or to now): a row of the ledger CSV."""

    nickname: str
    player_id: int
    start: dt.datetime
    end: dt.datetime | None = None
    buy_in: int = 0
    """Every buy-in and rebuy of the session."""
    buy_out: int = 0
    """What the player took away (cash-outs)."""
    stack: int = 0
    """What the player still has at the table (0 once the session ended)."""

    @property
    def net(self) -> int:
        return self.buy_out + self.stack - self.buy_in

    def csv_row(self) -> list[str | int]:
        return [self.nickname, self.player_id, _iso(self.start),
                _iso(self.end) if self.end else "", self.buy_in, self.buy_out, self.stack,
                self.net]  # fmt: skip


def csv_text(found: Sequence[Session]) -> str:
    """The sessions as a CSV file in PokerNow's columns (:data:`CSV_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    writer.writerows(s.csv_row() for s in found)
    return out.getvalue()


def _iso(moment: dt.datetime) -> str:
    """PokerNow's stamps: UTC, milliseconds, ``Z``."""
    utc = moment.astimezone(dt.UTC) if moment.tzinfo else moment
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


async def sessions(conn: AsyncConnection, table_id: int) -> list[Session]:
    """Every player's sessions at a table, in the order they began: buy-ins, hands and
    cash-outs replayed in the order they were written."""
    rows = await conn.execute(
        select(
            LedgerEntry.player_id,
            Player.name,
            LedgerEntry.amount,
            LedgerEntry.reason,
            LedgerEntry.created_at,
        )
        .join(Player, Player.id == LedgerEntry.player_id)
        .where(LedgerEntry.table_id == table_id)
        .order_by(LedgerEntry.id)
    )
    found: list[Session] = []
    open_: dict[int, Session] = {}
    for player_id, name, amount, reason, at in rows.all():
        session = open_.get(player_id)
        if session is None:
            session = open_[player_id] = Session(name, player_id, at)
            found.append(session)
        session.stack += amount
        # A host's chips (a private table's "host_chips") are a buy-in when given, and a
        # cash-out when taken away, as PokerNow's ledger counts a host's stack changes.
        if reason == "buy_in" or (reason == "host_chips" and amount > 0):
            session.buy_in += amount
        elif reason.endswith("cash_out") or reason == "host_chips":  # also "void_cash_out"
            session.buy_out -= amount
            if session.stack <= 0:
                session.end = at
                del open_[player_id]
    return found
