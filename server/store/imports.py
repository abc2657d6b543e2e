"""Importing PHH hand histories: each hand replayed, checked, numbered on its own imported
table and stored, duplicates (by the history's digest) skipped."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from engine import EngineError, HistoryError, UnsupportedHistoryError, history
from server.store.accounts import Accounts
from server.store.base import UTC
from server.store.hands import Hands, insert_hands
from server.store.models import Hand
from server.store.records import HandRows, hand_rows
from server.store.tables import Tables

__all__ = ["ImportReport", "Imports"]


@dataclass
class ImportReport:
    """What an import did, hand by hand: ``(source, status, message)`` per hand."""

    imported: int = 0
    duplicates: int = 0
    unsupported: int = 0
    errors: int = 0
    lines: list[tuple[str, str, str]] = field(default_factory=list)


class Imports(Accounts, Tables, Hands):
    """:meth:`import_histories`, on the players, tables and hands it stores into."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__(engine)
        self._next_number: dict[int, int] = {}  # per table, for imported hands

    async def import_histories(
        self,
        items: Iterable[tuple[str, str, history.HandHistory]],
        *,
        batch_size: int | None = None,
    ) -> ImportReport:
        """Store PHH hands, given as ``(source, table name, history)``. Each is replayed
        first; a hand that does not replay, another variant, or a hand already stored is
        reported and skipped. Hands are written in batches, each in one transaction, so a
        hand is stored whole or not at all. Imported hands are numbered in order on their
        table; the number the history gives stays in the history."""
        report = ImportReport()
        # SQLite has one writer at a time: short transactions keep a server writing to
        # the same file from waiting long (50 hands hold the lock about 50 ms).
        batch_size = batch_size or (50 if self.is_sqlite else 500)
        pending: list[tuple[str, HandRows]] = []
        for source, table_name, hh in items:
            try:
                rows = await self._import_rows(hh, str(hh.fields.get("table", table_name)))
            except UnsupportedHistoryError as exc:
                report.unsupported += 1
                report.lines.append((source, "unsupported", str(exc)))
                continue
            except EngineError as exc:  # a HistoryError, or a hand the engine cannot set up
                report.errors += 1
                report.lines.append((source, "error", str(exc)))
                continue
            pending.append((source, rows))
            if len(pending) >= batch_size:
                await self._flush_import(pending, report)
                pending = []
        if pending:
            await self._flush_import(pending, report)
        return report

    async def _flush_import(
        self, pending: list[tuple[str, HandRows]], report: ImportReport
    ) -> None:
        digests = [rows.hand["digest"] for _, rows in pending]
        async with self.engine.begin() as conn:
            found = await conn.execute(select(Hand.digest).where(Hand.digest.in_(digests)))
            existing = set(found.scalars())
            fresh: list[HandRows] = []
            for source, rows in pending:
                if rows.hand["digest"] in existing:
                    report.duplicates += 1
                    report.lines.append((source, "duplicate", "already stored"))
                else:
                    existing.add(rows.hand["digest"])
                    fresh.append(rows)
                    report.lines.append((source, "imported", ""))
            if fresh:
                ids = await conn.run_sync(insert_hands, fresh)
                report.imported += len(ids)

    async def _import_rows(self, hh: history.HandHistory, table_name: str) -> HandRows:
        _ = hh.game  # raises UnsupportedHistoryError for a game the engine does not play
        replay = history.replay(hh)
        hand = replay.hand
        n = len(hand.seats)
        names, seats, currency = _names(hh, n), _seats(hh, n), _currency(hh)
        ids = await self.ensure_players(names)
        config = {
            "game": hand.setup.game.to_dict(),
            "small_blind": hand.setup.small_blind,
            "big_blind": hand.setup.big_blind,
            "seats": int(hh.fields.get("seat_count", max(seats))),
        }
        table_id = await self.ensure_table(table_name, config, imported=True)
        started = _history_time(hh)
        hidden = [p for p in range(n) if not replay.known[p]]
        rows = hand_rows(
            hand,
            table_id=table_id,
            player_ids=[ids[name] for name in names],
            names=names,
            started_at=started,
            ended_at=started,
            history_text=history.dump(hh),
            scale=replay.scale,
            currency=currency,
            hidden=hidden,
        )
        for row, seat in zip(rows.players, seats, strict=True):
            row["seat"] = seat - 1
        rows.hand["button_seat"] = seats[-1] - 1
        rows.hand["hand_number"] = await self._next_hand_number(table_id)
        for row in rows.actions:
            row["seat"] = seats[row["seat"]] - 1
        return rows

    async def _next_hand_number(self, table_id: int) -> int:
        if table_id not in self._next_number:
            self._next_number[table_id] = await self.last_hand_number(table_id) + 1
        number = self._next_number[table_id]
        self._next_number[table_id] += 1
        return number


def _names(hh: history.HandHistory, n: int) -> list[str]:
    """The history's ``n`` player names (p1, p2, ... if it has none)."""
    names = [str(x) for x in hh.fields.get("players", [f"p{i + 1}" for i in range(n)])]
    if len(names) != n or len(set(names)) != n or any(not 0 < len(x) <= 64 for x in names):
        raise HistoryError(f"players must be {n} distinct names of 1 to 64 characters")
    return names


def _seats(hh: history.HandHistory, n: int) -> list[int]:
    """The history's ``n`` seat numbers, from 1 (1 to n if it has none)."""
    seat_field = hh.fields.get("seats")
    try:
        seats = [int(s) for s in seat_field] if seat_field else [p + 1 for p in range(n)]
    except (TypeError, ValueError):
        raise HistoryError(f"seats must be {n} seat numbers, got {seat_field!r}") from None
    if len(seats) != n or len(set(seats)) != n or not all(1 <= s <= 100 for s in seats):
        raise HistoryError(f"seats must be {n} distinct numbers from 1 to 100, got {seats!r}")
    return seats


def _currency(hh: history.HandHistory) -> str | None:
    """The history's currency code, if its amounts are money."""
    currency: Any = hh.fields.get("currency")
    if currency is None or (isinstance(currency, str) and 0 < len(currency) <= 8):
        return currency
    raise HistoryError(f"currency must be a code of up to 8 letters, got {currency!r}")


def _history_time(hh: history.HandHistory) -> dt.datetime:
    """When a history says its hand was played (PHH year/month/day/time), else now."""
    f = hh.fields
    try:
        day = dt.date(int(f["year"]), int(f.get("month", 1)), int(f.get("day", 1)))
    except (KeyError, ValueError, TypeError):
        return dt.datetime.now(UTC)
    clock = f.get("time")
    moment = dt.datetime.combine(day, clock if isinstance(clock, dt.time) else dt.time())
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
