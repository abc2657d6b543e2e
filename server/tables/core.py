"""A table, synchronous and without I/O: messages in, an :class:`Outbox` out.

:class:`TableCore` is what :class:`server.tables.TableRunner` drives, and what the table
tests drive directly with a fake ``now``. Each call is given the time; nothing here
reads a clock, waits, sends or writes. The core is made of parts that own their state
(docs/architecture.md, "The table core"):

- ``fanout`` (:class:`~server.tables.views.Fanout`): subscribers, sequence numbers, the
  log, each event redacted for each subscriber;
- ``views``: snapshots, the lobby's line, what goes to the bus;
- ``seats``: seating, the waiting list, sitting out, leaving, the ledger entries;
- ``decisions``: each decision, its clock and time bank, timeouts;
- ``house``: house bots;
- ``options``: straddles, bomb pots, the pause after a hand (shows, the rabbit);
- ``host``: a private table's invite, seat requests and the host's controls;
- ``rotation``: mixed games and dealer's choice;
- ``chat``: chat and reactions.

The core itself routes each message to its part by type (:attr:`TableCore.routes`) and
runs the hand's life: deal, ask, time out, end, pause, hand over for storing, settle.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from typing import Any

from engine import EngineError, Event, Table
from server import protocol
from server.bus import EventBus, LocalBus
from server.errors import Code, Refusal, engine_code
from server.fairness import Shuffle
from server.tables.base import LedgerEntry, Player, Subscriber, TableError, TableSettings
from server.tables.chat import Chat
from server.tables.clock import Decisions
from server.tables.hosted import HostControls
from server.tables.house import HouseBots
from server.tables.messages import (
    AddHouseBot,
    Caller,
    Disconnect,
    HandOver,
    HouseSit,
    Outbox,
    TableMessage,
)

__all__ = ["TableCore"]
from server.tables.mixing import Mixing
from server.tables.options import Options
from server.tables.seating import Seats
from server.tables.views import Fanout, Views

log = logging.getLogger("pokerroom")


_BY_PLAYER = (
    protocol.Sit, protocol.RequestSeat, protocol.Host, AddHouseBot, protocol.BombPot,
    protocol.Chat, protocol.React, protocol.Act, protocol.Resume,
)  # fmt: skip
"""The messages a table finds the player of (not only the connection): a busted
player's wait until their seat is freed (:meth:`TableCore.waits_for_settling`)."""


def _now_utc() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class TableCore:
    """One table's rules, state and parts; see the module's docstring."""

    def __init__(
        self,
        settings: TableSettings,
        now: float,
        *,
        new_shuffle: Callable[[str, int], Shuffle] = Shuffle.new,
        house_think_seconds: float = 0.2,
        bus: EventBus | None = None,
        address: str | None = None,
        wall: Callable[[], dt.datetime] = _now_utc,
    ) -> None:
        self.settings = settings
        self.table_id = settings.table_id
        self.table = Table(settings.config)
        self.new_shuffle = new_shuffle
        """A hand's secret seed and deck (docs/fairness.md); tests may fix the seeds."""
        self.house_think_seconds = house_think_seconds
        """How long house bots wait before acting, so people can follow them."""
        self.bus: EventBus = bus if bus is not None else LocalBus()
        """Read only for its topics and whether anyone listens: what to publish goes out
        in the outbox."""
        self.address = address
        """The websocket URL of the process hosting the table, for the lobby."""
        self.wall = wall  # the date, for what is stamped with one (chat, host controls)
        self.now = self.opened_at = now
        self.out = Outbox()  # what the call being carried out leaves to do
        self.closing = False
        self.close_reason = "closed"  # what table_closed says (the host's: "host")
        self.hands_played = 0
        self.started_at: dict[int, dt.datetime] = {}
        self.shuffles: dict[int, Shuffle] = {}
        self.finished = 0  # hand number of the last hand over (being stored)
        self.stored_through = 0  # hand number of the last hand stored
        self.storing: HandOver | None = None  # handed over, not stored yet
        self._players: dict[int, Player] = {}  # who played the hand that ended
        self.ledger_unrecorded = 0  # ledger entries handed out and not recorded yet
        self.waiting_for: str | None = None  # "database": a hand waits to be stored
        self.fanout = Fanout(self)
        self.views = Views(self)
        self.seats = Seats(self)
        self.house = HouseBots(self)
        self.decisions = Decisions(self)
        self.options = Options(self)
        self.chat = Chat(self)
        self.rotation = Mixing(self)
        self.host = HostControls(self)  # its controls are other parts' too
        self.routes = self._routes()
        """Each message the table takes, and the part's method that carries it out."""

    def _routes(self) -> dict[type[Any], Callable[[Any, Caller], dict[str, Any]]]:
        return {
            protocol.Sit: self.seats.sit,
            protocol.Spectate: self.views.spectate,
            protocol.RequestSeat: self.host.request_seat,
            protocol.Host: self.host.control,
            AddHouseBot: self.host.control,
            protocol.Straddle: self.options.straddle,
            protocol.BombPot: self.options.bomb_pot,
            protocol.Show: self.options.show,
            protocol.Rabbit: self.options.rabbit,
            protocol.Chat: self.chat.chat,
            protocol.React: self.chat.react,
            protocol.Leave: self.seats.leave,
            protocol.SitOut: self.seats.sit_out,
            protocol.SitIn: self.seats.sit_in,
            protocol.Act: self.decisions.act,
            protocol.ChooseGame: self.rotation.choose_game,
            protocol.Resume: self.seats.resume,
            Disconnect: self.seats.disconnect,
            HouseSit: lambda m, caller: self.house.sit(m),
        }

    # -- calls --------------------------------------------------------------------------

    def _begin(self, now: float) -> Outbox:
        self.now = now
        self.out = Outbox()
        return self.out

    def handle(self, message: TableMessage, caller: Caller, now: float) -> Outbox:
        """Carry out one message: its reply (or refusal) and what it changed. The table
        moves on (deals, asks the next player) in :meth:`advance`, after the reply."""
        out = self._begin(now)
        try:
            out.reply = self.routes[type(message)](message, caller)
        except Refusal as exc:
            out.refusal = exc
        except EngineError as exc:
            out.refusal = TableError(engine_code(exc), str(exc))
        except Exception:  # a bug costs this one message, not the table
            log.exception("table %s: error in %s", self.table_id, type(message).__name__)
            out.refusal = TableError(Code.INTERNAL, "the table failed to carry out this message")
        return out

    def advance(self, now: float) -> Outbox:
        """Move the table on as far as it goes without anyone: the time-outs due by
        ``now``, a house bot's action, ending a hand and its pause, dealing the next, and
        asking for the next decision. A finished hand is handed over in the outbox
        (:attr:`Outbox.hand_over`); nothing more happens until :meth:`hand_stored`."""
        out = self._begin(now)
        while self.storing is None and self._step():
            pass
        return out

    def _step(self) -> bool:
        """One move of :meth:`advance`; False when the table waits (for a message, a
        deadline, or its hand to be stored)."""
        table = self.table
        hand = table.hand
        if self.options.pause_ends is not None:
            if self.options.pause_over():
                self._hand_over()
            return False
        if hand is not None and hand.is_over and table.hand_number > self.finished:
            self._hand_ended()  # stored, even when the table is closing: it was played
            return True
        if self.closing:  # a hand still being played is void (the runner cashes out)
            return False
        if not table.hand_in_progress:
            return self._between_hands()
        seat = table.to_act
        assert seat is not None
        if seat in self.seats.leaving or seat in self.decisions.absent:
            # The player left mid-hand, or is gone and their clock has run out once this
            # hand: nobody waits for them again. They fold (or check, when that is free:
            # the rules do not let a player fold then).
            self.publish(table.apply(self.decisions.default_action(seat)))
            return True
        if self.decisions.timed_out():
            self.decisions.time_out()
            return True
        if self.house.play_due():
            return True
        self.decisions.ask()
        return False

    def _between_hands(self) -> bool:
        """No hand is being played: the host's changes, then deal if the table can; else
        stand up whoever is gone for good, and time out a pick not made. True when the
        table moved on (a hand dealt, a pick timed out)."""
        if self.ledger_unrecorded:  # buy-ins are on record before the hand they play
            return False
        self.host.between_hands()
        if self.closing or self.ledger_unrecorded:  # the host's chips on record first
            return False
        self.options.between_hands()
        if self._start_hand():
            return True
        gone = self.seats.gone_at()
        if gone is not None and gone <= self.now:
            self.seats.stand_up_gone()
        choice = self.rotation.deadline()
        if choice is not None and choice <= self.now:
            self.rotation.time_out()
            return True
        return False

    def _start_hand(self) -> bool:
        """Seat who is waiting, and deal a hand if enough players can play."""
        self.seats.seat_waiting_players()
        if self.host.paused or self.ledger_unrecorded:  # their buy-ins on record first
            return False
        table = self.table
        ready = [s for s in table.occupied() if table.stack(s) > 0 and not table.is_sitting_out(s)]
        if len(ready) < 2 or not self.rotation.game_for_next_hand(ready):
            return False
        number = table.hand_number + 1
        shuffle = self.new_shuffle(self.table_id, number)
        try:
            events = table.start_hand(shuffle.deck(table.config.game.deck))
        except EngineError:
            return False  # not enough players can play yet (waiting for the big blind)
        self.started_at[number] = self.wall()
        self.shuffles[number] = shuffle
        self.views.announce_commitment(number, shuffle)
        self.publish(events)
        return True

    def _hand_ended(self) -> None:
        """The hand is over: the pause after it, if the table has one, then its storing."""
        hand = self.table.hand
        assert hand is not None
        self.finished = self.table.hand_number
        self.hands_played += 1
        self.views.recent.append((self.now, sum(hand.totals)))
        self._players = {s: o.player for s, o in self.seats.occupants.items()}  # who played
        if not self.options.start_pause():
            self._hand_over()

    def _hand_over(self) -> None:
        number = self.finished
        started = self.started_at.pop(number, self.wall())
        self.storing = HandOver(number, self._players, started, self.shuffles.pop(number))
        self.out.hand_over = self.storing

    def hand_stored(self, now: float) -> Outbox:
        """The hand handed over is on record: free the busted seats and stand up who
        goes. The runner then carries out what waited for this, and :meth:`advance`."""
        out = self._begin(now)
        assert self.storing is not None
        self.stored_through = self.storing.number
        self.storing = None
        self.seats.settle()
        self.decisions.absent.clear()
        self.house.settle()
        self.views.publish_summary()  # a hand more played, and who left
        return out

    def deadline(self) -> float | None:
        """When :meth:`advance` has something to do with no message: a decision's clock,
        a house bot's action, the pause's end, a grace period, a pick of the game."""
        if self.closing or self.storing is not None:
            return None
        if self.options.pause_ends is not None:
            return self.options.pause_ends
        if self.table.hand_in_progress:
            due = self.house.due
            times = [self.decisions.deadline(), None if due is None else due[2]]
        else:
            times = [self.seats.gone_at(), self.rotation.deadline()]
        return min((t for t in times if t is not None), default=None)

    # -- what the runner tells the core ----------------------------------------------------

    def waits_for_settling(self, message: TableMessage, caller: Caller) -> bool:
        """Whether ``message`` waits until the hand is stored and the seats settled: it is
        a busted player's (the engine stood them up and ``player_stood`` went out, but
        their seat is freed once the hand is stored), who would be found seated now."""
        if not isinstance(message, _BY_PLAYER) and not (
            isinstance(message, protocol.Spectate) and self.host.private
        ):
            return False  # a leave, a disconnect...: carried out at once, by connection
        player = caller.player_or_none
        seat = None if player is None else self.seats.of_player(player)
        return seat is not None and seat not in self.table.occupied()

    def ledger_recorded(self, count: int) -> None:
        self.ledger_unrecorded -= count

    def wait_for(self, what: str | None, now: float) -> Outbox:
        """The table waits for ``what`` ("database"; None: no longer): everyone is told,
        and so is whoever comes meanwhile (their snapshot)."""
        out = self._begin(now)
        self.waiting_for = what
        self.fanout.tell_everyone({"type": "table_waiting", "waiting_for": what})
        return out

    def close(self) -> None:
        self.closing = True

    def publish_summary(self, now: float) -> Outbox:
        """The lobby's line for the table, on the bus."""
        out = self._begin(now)
        self.views.publish_summary()
        return out

    def state(self, now: float) -> bytes:
        """The table's state as the bus retains it: a spectator's snapshot."""
        self.now = now
        return self.views.state_text()

    def cash_out_everyone(self) -> list[LedgerEntry]:
        return self.seats.cash_out_everyone()

    def drop(self, session: Subscriber) -> None:
        """Sending to ``session`` failed: it gets nothing more from this table."""
        self.fanout.subscribers.pop(session, None)

    def publish(self, events: list[Event]) -> None:
        """The engine's events, to every subscriber and the bus."""
        self.options.saw(events)
        self.fanout.publish(events)

    # -- read by the server --------------------------------------------------------------

    def number_hands_after(self, hand_number: int) -> None:
        """Before the first hand: the next hand dealt is ``hand_number + 1``."""
        assert self.table.hand is None, "a table numbers its hands before it deals one"
        self.table.hand_number = self.finished = self.stored_through = hand_number

    @property
    def unsettled(self) -> bool:
        """A hand is being played, or is over and not stored yet: who leaves it stands up
        once it is stored."""
        return self.table.hand_in_progress or self.table.hand_number > self.stored_through

    @property
    def has_people(self) -> bool:
        """Whether anyone but a house bot is seated here or waiting for a seat, someone
        asks for one, or the host watches."""
        seats = self.seats
        people = bool(seats.waiting) or any(s not in self.house.bots for s in seats.occupants)
        return people or self.host.has_people
