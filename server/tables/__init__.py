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
from functools import partial
from typing import Any

from engine import Action, ActionMenu, BetOrRaiseTo, CheckOrCall, EngineError, Fold, Table, history
from server import protocol
from server.bus import EventBus
from server.fairness import Shuffle
from server.store import HandWriter, hand_rows
from server.tables.base import (
    Clock,
    Command,
    HandStore,
    Player,
    Seat,
    Subscriber,
    TableError,
    TableSettings,
)
from server.tables.house import HouseBots

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

ACTION_IDS_KEPT = 10_000  # answers remembered for retries of an action


class TableRunner(HouseBots):
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

    def _ask_for_action(self) -> float:
        """Send the player to act an action request when a new decision starts; return the
        seconds left on their clock (decision time plus time bank)."""
        seat = self.table.to_act
        assert seat is not None and self.table.hand is not None
        key = (self.table.hand_number, seat, len(self.table.hand.log))
        occupant = self.seats[seat]
        if self._decision != key or self._resend == seat:
            if self._decision != key:  # a new decision: its clock starts now
                self._decision = key
                self._decision_started = self.clock()
                self._decision_seq = self.seq
            self._resend = None
            if occupant.session is not None:
                self._send_action_request(seat, occupant)
            if seat in self.house:
                self._house_decides(seat, key)
        return self._time_left(occupant)

    def _send_action_request(self, seat: int, occupant: Seat) -> None:
        session = occupant.session
        assert session is not None
        menu = self.table.legal_actions(seat)
        assert menu is not None
        request = {
            "type": "action_request",
            "table": self.settings.table_id,
            "seq": self._decision_seq,
            "hand_number": self.table.hand_number,
            "seat": seat,
            "menu": protocol.menu_body(menu),
            "decision_seconds": self.settings.decision_seconds,
            "time_bank_seconds": occupant.time_bank,
        }
        self._deliver(session, partial(session.send, protocol.dumps(request), urgent=True))

    def _time_left(self, occupant: Seat) -> float:
        """Seconds left on the decision's clock: decision time plus time bank, and for a
        player who is disconnected no more than what is left of the grace period."""
        elapsed = self.clock() - self._decision_started
        limit = self.settings.decision_seconds + occupant.time_bank
        if occupant.disconnected_at is not None:
            gone = self.clock() - occupant.disconnected_at
            limit = min(limit, max(0.0, self.settings.reconnect_grace_seconds - gone + elapsed))
        return max(0.0, limit - elapsed)

    def _spend_clock(self, seat: int) -> None:
        """The decision is over: what it took beyond the decision time comes off the bank."""
        elapsed = self.clock() - self._decision_started
        occupant = self.seats[seat]
        occupant.time_bank = max(
            0.0, occupant.time_bank - max(0.0, elapsed - self.settings.decision_seconds)
        )

    def _time_out(self) -> None:
        """The clock ran out: check if that is free, otherwise fold."""
        seat = self.table.to_act
        assert seat is not None
        occupant = self.seats[seat]
        self._spend_clock(seat)
        occupant.timeouts += 1
        self._publish(self.table.apply(self._default_action(seat)))
        if occupant.disconnected_at is not None:
            self._absent.add(seat)
        if occupant.timeouts >= self.settings.timeouts_to_sit_out or seat in self._absent:
            self._sit_out(seat)

    def _default_action(self, seat: int) -> Action:
        """What a seat nobody answers for does: check if that is free, else fold."""
        menu = self.table.legal_actions(seat)
        assert menu is not None
        return CheckOrCall(seat) if menu.can_check else Fold(seat)

    def _cmd_act(
        self, session: Subscriber, *, player: Player, action_id: str, action: str,
        amount: int | None, seq: int | None = None,
    ) -> dict[str, Any]:  # fmt: skip
        key = (player.id, action_id)
        if key in self.action_ids:  # a retry: answer again, act once
            return {**self.action_ids[key], "duplicate": True}
        seat = self._require_seat(session)
        if self.table.to_act != seat:
            raise TableError("not_your_turn", f"it is not seat {seat}'s turn")
        if seq is not None and seq != self._decision_seq:
            raise TableError(
                "stale", f"the decision of seq {seq} is over: answer the request of seq "
                f"{self._decision_seq}",
            )  # fmt: skip
        menu = self.table.legal_actions(seat)
        assert menu is not None
        move = action_from_wire(menu, action, amount)
        self._spend_clock(seat)
        self._publish(self.table.apply(move))
        self.seats[seat].timeouts = 0
        reply = {"type": "ack", "table": self.settings.table_id, "action_id": action_id}
        self.action_ids[key] = reply
        if len(self.action_ids) > ACTION_IDS_KEPT:
            self.action_ids.popitem(last=False)
        return reply


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


def action_from_wire(menu: ActionMenu, action: str, amount: int | None) -> Action:
    """The engine action an ``act`` message names for ``menu.seat``, or
    :class:`TableError` (``bad_action``, ``illegal``) for one the menu rules out by its
    kind; a bet's amount is the engine's to check."""
    seat = menu.seat
    if action in ("bet", "raise"):
        if amount is None:
            raise TableError("bad_action", f"{action} needs an amount (the street total)")
        return BetOrRaiseTo(seat, amount)
    if amount is not None:
        raise TableError("bad_action", f"{action} takes no amount")
    if action == "fold":
        return Fold(seat)
    if action == "check" and not menu.can_check:
        raise TableError("illegal", f"seat {seat} cannot check: calling costs {menu.call}")
    if action == "call" and menu.can_check:
        raise TableError("illegal", f"seat {seat} cannot call: there is nothing to call")
    return CheckOrCall(seat)
