"""Writing hands: when a hand ends, it is stored (before the next one is dealt) and then
who leaves is settled; :func:`store_with` records a hand, with its seed, through the one pipeline
every finished hand takes (:mod:`server.recording`).

A database that goes away pauses the table, never stops it: the hand writer retries
until it is back (its writes are idempotent), and meanwhile the table goes on carrying
out commands (chat, watchers, seats taken and left) and tells everyone it waits
(:meth:`Storing._serve_until`)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable
from typing import Any, TypeVar

from engine import Table
from server.bus import EventBus
from server.fairness import Shuffle
from server.recording import FinishedHand, HandRecord
from server.store import HandWriter
from server.tables.base import Command, HandStore, Player
from server.tables.clock import Decisions

T = TypeVar("T")

QUICK_SECONDS = 0.25
"""A write that takes longer than this has the table carry out commands meanwhile."""
NOTICE_SECONDS = 2.0
"""A write that takes longer than this has everyone at the table told it waits for the
database (``table_waiting``), and told again when it goes on."""


class Storing(Decisions):
    """Ends each hand once: stores it, then frees and stands up whoever goes."""

    def number_hands_after(self, hand_number: int) -> None:
        """Before the first hand: the next hand dealt is ``hand_number + 1``."""
        assert self.table.hand is None, "a table numbers its hands before it deals one"
        self.table.hand_number = self._finished_through = self._stored_through = hand_number

    @property
    def finished_through(self) -> int:
        """The number of the last hand that is over and stored."""
        return self._stored_through

    async def _finish_if_over(self) -> None:
        """Once per hand, when it ends: store it (before the next is dealt), then settle
        who leaves."""
        hand = self.table.hand
        if hand is None or not hand.is_over or self.table.hand_number <= self._finished_through:
            return
        self._finished_through = self.table.hand_number
        self.hands_played += 1
        self.recent.append((self.clock(), sum(hand.totals)))
        number = self.table.hand_number
        players = {s: seat.player for s, seat in self.seats.items()}  # who played it
        await self._after_hand()
        shuffle = self.shuffles.pop(number)
        if self.store_hand is not None:
            started = self.started_at.pop(number, dt.datetime.now(dt.UTC))
            await self._serve_until(self.store_hand(self.table, players, started, shuffle))
        self._stored_through = number
        self._settle_seats()
        deferred, self._deferred = self._deferred, []
        for command in deferred:  # a busted player sitting again: their seat is free now
            await self._handle(command)
        await self._serve_until(self._flush_ledger())
        self.publish_summary()  # a hand more played, and who left

    async def _serve_until(self, work: Awaitable[T]) -> T:
        """``work``'s result (a write to the database), carrying out the table's commands
        while it takes more than a moment: a database that is away keeps no watcher's,
        chatter's or leaver's reply waiting. Past :data:`NOTICE_SECONDS`, everyone at the
        table is told it waits for the database; told again when it goes on."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait((task,), timeout=QUICK_SECONDS)  # the usual case
        if done:
            return task.result()
        told = False
        try:
            while not task.done():
                getter = asyncio.ensure_future(self.queue.get())
                either: tuple[asyncio.Task[Any], ...] = (task, getter)
                timeout = None if told else NOTICE_SECONDS - QUICK_SECONDS
                done, _ = await asyncio.wait(
                    either, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
                )
                if getter in done:
                    command = getter.result()
                    if self._waits_for_settling(command):
                        self._deferred.append(command)
                    else:
                        await self._handle(command)
                else:
                    getter.cancel()  # a Queue.get cancelled before it returns takes nothing
                if not done and not told:
                    told = True
                    self.waiting_for = "database"  # in the snapshots of who comes meanwhile
                    self._tell_everyone({"type": "table_waiting", "waiting_for": "database"})
            return task.result()
        finally:
            task.cancel()  # the table is being stopped: so is the write it waited for
            if told:
                self.waiting_for = None
                self._tell_everyone({"type": "table_waiting", "waiting_for": None})

    def _waits_for_settling(self, command: Command) -> bool:
        """Whether ``command`` waits until the hand is stored and the seats settled: it is
        a busted player's (the engine stood them up and ``player_stood`` went out, but
        their seat is freed once the hand is stored), who would be found seated now."""
        player = command.args.get("player")
        seat = None if player is None else self._seat_of_player(player)
        return seat is not None and seat not in self.table.occupied()

    async def _after_hand(self) -> None:
        """Between a hand's end and its storing: the show pause (options.py)."""

    def _settle_seats(self) -> None:
        """Between hands: free the busted seats (house bots buy in again), and stand up
        whoever left during the hand or has been gone past the grace period."""
        for seat in list(self.seats):
            if seat not in self.table.occupied():  # busted: the engine stood them up
                self._free(seat)
                if seat in self.house:  # house bots buy in again: the demo goes on
                    self._seat_house_bot(seat)
            elif seat in self.leaving or self._gone(seat):
                self._stand_up(seat)
        self.leaving.clear()
        self._absent.clear()


def store_with(
    writer: HandWriter, table_id: int, table_name: str, bus: EventBus | None = None
) -> HandStore:
    """A :data:`HandStore` recording finished hands, with their seeds, through ``writer``
    and announcing them on ``bus`` (:mod:`server.recording`)."""
    record = HandRecord(writer, bus)

    async def store(
        table: Table, players: dict[int, Player], started: dt.datetime, shuffle: Shuffle
    ) -> None:
        hand = table.hand
        assert hand is not None
        who = [players[s] for s in hand.seats]
        await record(FinishedHand(
            hand, table_name, table_id, [p.id for p in who], [p.name for p in who], started,
            seed=shuffle.seed.hex(), commitment=shuffle.commitment, fields=shuffle.phh_fields(),
        ))  # fmt: skip

    return store
