"""One task per table: the only code that touches its ``engine.Table``.

Sessions send a :class:`TableRunner` commands through its queue and await the reply; the
runner applies them in order, deals hands, runs each decision's clock, answers timeouts,
fans the engine's events out (each subscriber gets them redacted for its seat, with a
sequence number), and stores every finished hand before dealing the next one.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from typing import Any

from engine import EngineError, Table, history
from server import protocol
from server.bus import EventBus
from server.fairness import Shuffle
from server.store import HandWriter, hand_rows
from server.tables.base import (
    Clock,
    Command,
    HandStore,
    Player,
    Subscriber,
    TableError,
    TableSettings,
)
from server.tables.clock import Decisions, action_from_wire

log = logging.getLogger("pokerroom")

__all__ = [
    "Clock",
    "Player",
    "Subscriber",
    "TableError",
    "TableRunner",
    "TableSettings",
    "action_from_wire",
]

_UNANSWERED = frozenset({"noop", "house_act"})  # the table's own commands: nobody awaits


class TableRunner(Decisions):
    """Owns one table. Start :meth:`run` as a task; talk to it with :meth:`request`."""

    # -- the outside ------------------------------------------------------------------

    async def request(self, name: str, session: Subscriber | None, **args: Any) -> dict[str, Any]:
        """Send a command and wait for the reply; :class:`TableError` if refused."""
        if self._stopped:
            raise self._stopped_error()
        reply: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        await self.queue.put(Command(name, session, args, reply))
        return await reply

    def abandon(self) -> None:
        """Stop without cashing anyone out or clearing the lobby: another process has
        taken the table over (its lease), and settles what this one leaves."""
        self._abandoned = True
        self.close()

    def close(self) -> None:
        self._closing = True
        wake: asyncio.Future[dict[str, Any]] = asyncio.get_event_loop().create_future()
        wake.set_result({})  # nobody waits for this reply: it only wakes the loop
        self.queue.put_nowait(Command("noop", None, {}, wake))

    @property
    def abandoned(self) -> bool:
        """The table stopped because another process took it over (:meth:`abandon`)."""
        return self._abandoned

    @property
    def stopped(self) -> bool:
        """The table's task has ended: it answers every request with ``table_closed``."""
        return self._stopped

    # -- the loop -------------------------------------------------------------------------

    async def run(self) -> None:
        """Deal and run hands until closed. An error the table cannot get past stops this
        table alone: it is logged, and whoever is waiting on the table is told."""
        try:
            await self._play()
        except Exception:
            log.exception("table %s stopped by an error", self.settings.table_id)
        finally:
            self.halt()
            if self._state_timer is not None:
                self._state_timer.cancel()
            if not self._abandoned:
                topics = self.bus.topics
                for topic in (topics.lobby, topics.table_state):  # gone from the bus
                    self.bus.publish(topic(self.settings.table_id), b"", retain=True)
                await self._cash_out_everyone()

    def halt(self) -> None:
        """Mark the table stopped and refuse every request still waiting for it."""
        self._stopped = True
        while not self.queue.empty():
            command = self.queue.get_nowait()
            if command.reply.done():
                continue
            if command.name in _UNANSWERED:  # nobody awaits these: nobody to tell
                command.reply.cancel()
            else:
                command.reply.set_exception(self._stopped_error())

    def _stopped_error(self) -> TableError:
        return TableError("table_closed", f"table {self.settings.table_id!r} has stopped")

    async def _play(self) -> None:
        while not self._closing:
            if not self.table.hand_in_progress:
                await self._flush_ledger()  # buy-ins are on record before chips play
                if self._start_hand():
                    await self._finish_if_over()  # all in from the blinds: over at once
                else:
                    await self._handle(await self.queue.get())
                continue
            if self.table.to_act in self.leaving or self.table.to_act in self._absent:
                # The player left mid-hand, or is gone and their clock has run out once
                # this hand: nobody waits for them again. They fold (or check, when that
                # is free: the rules do not let a player fold then).
                self._publish(self.table.apply(self._default_action(self.table.to_act)))
                await self._finish_if_over()
                continue
            timeout = self._ask_for_action()
            try:
                async with asyncio.timeout(timeout):  # no task per wait, unlike wait_for
                    command = await self.queue.get()
            except TimeoutError:
                self._time_out()
                await self._finish_if_over()
                continue
            await self._handle(command)

    def _start_hand(self) -> bool:
        """Seat who is waiting, and deal a hand if enough players can play."""
        self._seat_waiting_players()
        ready = [
            s
            for s in self.table.occupied()
            if self.table.stack(s) > 0 and not self.table.is_sitting_out(s)
        ]
        if len(ready) < 2:
            return False
        number = self.table.hand_number + 1
        shuffle = self.new_shuffle(self.settings.table_id, number)
        try:
            events = self.table.start_hand(shuffle.deck())
        except EngineError:
            return False  # not enough players can play yet (waiting for the big blind)
        self.started_at[number] = dt.datetime.now(dt.UTC)
        self.shuffles[number] = shuffle
        self._announce_commitment(number, shuffle)
        self._publish(events)
        return True

    # -- commands ---------------------------------------------------------------------------

    async def _handle(self, command: Command) -> None:
        """Carry out one command (a ``_cmd_<name>`` method of a layer) and answer it."""
        handler = getattr(self, f"_cmd_{command.name}", None)
        try:
            if handler is None:
                raise TableError("bad_command", f"no command {command.name!r}")
            result = handler(command.session, **command.args)
        except TableError as exc:
            if not command.reply.done():
                command.reply.set_exception(exc)
            return
        except EngineError as exc:
            if not command.reply.done():
                command.reply.set_exception(TableError("illegal", str(exc)))
            return
        except Exception:  # a bug costs this one command, not the table
            log.exception("table %s: error in command %r", self.settings.table_id, command.name)
            if not command.reply.done():
                command.reply.set_exception(
                    TableError("internal", "the table failed to carry out this command")
                )
            return
        if not command.reply.done():
            command.reply.set_result(result)
        # Let the session send this reply before the table goes on, when the next action
        # request may be this player's (after a resume or a sit, on the next street, in the
        # next hand). When another player is to act, an ack need not wait: every turn of
        # the event loop is latency.
        to_act = self.table.to_act
        if command.name != "act" or to_act is None or to_act == self._seat_of(command.session):
            await asyncio.sleep(0)
        await self._finish_if_over()

    def _cmd_noop(self, session: Subscriber | None) -> dict[str, Any]:
        return {}

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
        shuffle = self.shuffles.pop(self.table.hand_number)
        if self.store_hand is not None:
            players = {s: seat.player for s, seat in self.seats.items()}
            started = self.started_at.pop(self.table.hand_number, dt.datetime.now(dt.UTC))
            await self.store_hand(self.table, players, started, shuffle)
        self._stored_through = self.table.hand_number
        self._settle_seats()
        await self._flush_ledger()
        self.publish_summary()  # a hand more played, and who left

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
    """A :data:`HandStore` writing finished hands, with their seeds, through ``writer``;
    once a hand is committed, its summary goes to ``bus`` (no hole card: the events topic
    has the cards that were shown)."""

    async def store(
        table: Table, players: dict[int, Player], started: dt.datetime, shuffle: Shuffle
    ) -> None:
        hand = table.hand
        assert hand is not None
        names = [players[s].name for s in hand.seats]
        written = history.from_hand(hand, players=names)
        written.fields["table"] = table_name
        written.fields.update(shuffle.phh_fields())
        rows = hand_rows(
            hand,
            table_id=table_id,
            player_ids=[players[s].id for s in hand.seats],
            names=names,
            started_at=started,
            ended_at=dt.datetime.now(dt.UTC),
            history_text=history.dump(written),
            deck_commitment=shuffle.commitment,
            seed=shuffle.seed.hex(),
        )
        hand_id = await writer.write(rows)
        if bus is not None and bus.active:
            summary = {
                "id": hand_id, "table": table_name, "hand_number": hand.setup.hand_number,
                "started_at": started.isoformat(), "ended_at": rows.hand["ended_at"].isoformat(),
                "pot": rows.hand["pot"], "board": [str(c) for c in hand.board],
                "deck_commitment": shuffle.commitment,
                "players": [
                    {"seat": p["seat"], "name": name, "net": p["net"]}
                    for p, name in zip(rows.players, names, strict=True)
                ],
            }  # fmt: skip
            bus.publish(bus.topics.hand(hand_id), protocol.dumps(summary).encode())

    return store
