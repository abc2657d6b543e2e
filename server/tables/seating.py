"""Who sits where: sitting down, the waiting list, sitting out and in, leaving,
disconnections and the grace period, resuming on a new connection; and the ledger of
buy-ins and cash-outs that seating writes."""

from __future__ import annotations

import secrets
from collections import deque
from typing import TYPE_CHECKING, Any

from engine import EngineError
from server import protocol
from server.errors import Code
from server.tables.base import LedgerEntry, Player, Seat, Subscriber, TableError
from server.tables.messages import Caller, Disconnect

if TYPE_CHECKING:
    from server.tables.core import TableCore


class Seats:
    """Seats, the waiting list, who leaves after the hand, seat tokens and the ledger."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.occupants: dict[int, Seat] = {}
        self.waiting: deque[tuple[Player, int, Subscriber]] = deque()
        self.leaving: set[int] = set()  # seats that stand up once the hand is stored
        self.tokens: dict[str, int] = {}  # a seat's token -> its player's id
        self.ever_seated = False  # anyone but a house bot has sat here

    # -- who is where -----------------------------------------------------------------

    def of_player(self, player: Player) -> int | None:
        """The seat ``player`` holds here, if any."""
        return next((s for s, o in self.occupants.items() if o.player.id == player.id), None)

    def of(self, session: Subscriber | None) -> int | None:
        return next((s for s, o in self.occupants.items() if o.session is session), None)

    def require(self, session: Subscriber | None) -> int:
        seat = self.of(session)
        if seat is None:
            raise TableError(Code.NOT_SEATED, "you have no seat at this table")
        return seat

    def free(self) -> list[int]:
        return [s for s in range(self.core.table.config.seats) if s not in self.occupants]

    def player_of_token(self, token: str) -> Player | None:
        """Who holds the seat ``token`` was given for, if they still hold it."""
        for known, player_id in self.tokens.items():
            if secrets.compare_digest(known, token):
                return next(
                    (o.player for o in self.occupants.values() if o.player.id == player_id), None
                )
        return None

    # -- sitting down -----------------------------------------------------------------

    def check_buy_in(self, buy_in: int) -> None:
        cfg = self.core.table.config
        if not cfg.min_buy_in <= buy_in <= cfg.max_buy_in:
            raise TableError(
                Code.BAD_BUY_IN,
                f"a buy-in of {buy_in} is outside {cfg.min_buy_in}..{cfg.max_buy_in}",
            )

    def sit(self, m: protocol.Sit, caller: Caller) -> dict[str, Any]:
        core, player = self.core, caller.player
        core.host.require_public_or_host(player)
        reply = self.sit_down(caller.subscriber, player, m.seat, m.buy_in, m.wait_for_big_blind)
        core.host.arrived(caller.subscriber, player)
        return reply

    def sit_down(
        self, session: Subscriber, player: Player, seat: int | None, buy_in: int, wait: bool
    ) -> dict[str, Any]:
        if self.of_player(player) is not None:
            raise TableError(Code.ALREADY_SEATED, f"{player.name} already has a seat here")
        self.check_buy_in(buy_in)
        if seat is None:
            free = self.free()
            if not free:
                if any(p.id == player.id for p, _, _ in self.waiting):
                    raise TableError(Code.ALREADY_WAITING, "you are on the waiting list already")
                self.waiting.append((player, buy_in, session))
                return {"type": "waiting", "table": self.core.table_id,
                        "position": len(self.waiting)}  # fmt: skip
            seat = free[0]
        return self.take(session, player, seat, buy_in, wait)

    def take(
        self, session: Subscriber, player: Player, seat: int, buy_in: int, wait: bool
    ) -> dict[str, Any]:
        core = self.core
        if seat in self.occupants:
            raise TableError(Code.SEAT_TAKEN, f"seat {seat} is taken")
        events = core.table.sit_down(seat, buy_in, wait_for_big_blind=wait)
        # A player sees their own table live: what a delay held back comes out first.
        core.fanout.stop_delay(session)
        self.waiting = deque(w for w in self.waiting if w[0].id != player.id)
        self.occupants[seat] = Seat(
            player, session, core.settings.time_bank_seconds, core.fanout.seq
        )
        self.ever_seated = True
        self.ledger(player.id, buy_in, "buy_in")
        core.fanout.subscribers[session] = seat
        core.publish(events)
        core.views.joined(seat)
        core.fanout.send(session, core.views.snapshot(seat))
        # The seat's token brings its player back to it from a new page, without logging in
        # (a hello with it, then resume); it lasts while they hold the seat.
        token = secrets.token_urlsafe(24)
        self.tokens[token] = player.id
        return {"type": "seated", "table": core.table_id, "seat": seat, "stack": buy_in,
                "seat_token": token}  # fmt: skip

    def seat_waiting_players(self) -> None:
        free = self.free()
        while self.waiting and free:
            player, buy_in, session = self.waiting.popleft()
            try:
                self.take(session, player, free.pop(0), buy_in, wait=True)
            except (TableError, EngineError):
                continue

    # -- sitting out, leaving, coming back ---------------------------------------------

    def sit_out(self, m: protocol.SitOut, caller: Caller) -> dict[str, Any]:
        seat = self.require(caller.session)
        self.core.publish(self.core.table.sit_out(seat))
        return {"type": "sat_out", "table": self.core.table_id, "seat": seat}

    def sit_in(self, m: protocol.SitIn, caller: Caller) -> dict[str, Any]:
        seat = self.require(caller.session)
        self.occupants[seat].timeouts = 0
        self.core.publish(self.core.table.sit_in(seat, post=m.post))
        return {"type": "sat_in", "table": self.core.table_id, "seat": seat}

    def sit_out_seat(self, seat: int) -> None:
        table = self.core.table
        if seat in table.occupied() and not table.is_sitting_out(seat):
            self.core.publish(table.sit_out(seat))

    def leave(self, m: protocol.Leave, caller: Caller) -> dict[str, Any]:
        session, table_id = caller.session, self.core.table_id
        seat = self.of(session)
        self.waiting = deque(w for w in self.waiting if w[2] is not session)
        if seat is None:
            self.core.fanout.subscribers.pop(caller.subscriber, None)
            return {"type": "left", "table": table_id}
        if not self.stand_up_now_or_after_hand(seat):
            return {"type": "leaving", "table": table_id, "seat": seat}
        self.core.fanout.subscribers.pop(caller.subscriber, None)
        return {"type": "left", "table": table_id, "seat": seat}

    def stand_up_now_or_after_hand(self, seat: int) -> bool:
        """Stand a seat up now (True), or once the hand it is dealt into is over and
        stored: folded (or checked, when free) now if it is their turn, else as soon as
        the action reaches them (the history keeps the turn order)."""
        hand = self.core.table.hand
        if self.core.unsettled and hand is not None and seat in hand.position:
            self.leaving.add(seat)
            return False
        self.stand_up(seat)
        return True

    def disconnect(self, m: Disconnect, caller: Caller) -> dict[str, Any]:
        """The connection dropped: the seat is kept for the grace period."""
        session = caller.subscriber
        self.core.host.disconnected(session)
        self.core.fanout.subscribers.pop(session, None)
        seat = self.of(session)
        if seat is not None:
            self.occupants[seat].session = None
            self.occupants[seat].disconnected_at = self.core.now
        self.waiting = deque(w for w in self.waiting if w[2] is not session)
        return {}

    def resume(self, m: protocol.Resume, caller: Caller) -> dict[str, Any]:
        """A new connection of a player's: their seat, if any, follows them to it (asked
        again if it is their turn; the clock runs on), with the events they missed."""
        core, session, player = self.core, caller.subscriber, caller.player
        core.host.refuse_uninvited(m.invite, player)
        seat = self.of_player(player)
        if seat is not None:
            occupant = self.occupants[seat]
            old = occupant.session
            if old is not None and old is not session:
                core.fanout.subscribers.pop(old, None)
            occupant.session = session
            occupant.disconnected_at = None
            core.decisions.absent.discard(seat)  # back: asked again
            core.decisions.resend = seat
        reply = core.views.resumed(session, seat, m.last_seq)
        core.rotation.resumed(seat)
        core.host.came_back(session, player)
        return reply

    def gone(self, seat: int) -> bool:
        """Disconnected for the grace period: the seat goes to someone else."""
        away = self.occupants[seat].disconnected_at
        grace = self.core.settings.reconnect_grace_seconds
        return away is not None and away + grace <= self.core.now  # as gone_at() says

    def gone_at(self) -> float | None:
        """When the first disconnected player's grace period runs out (None when nobody
        seated is away)."""
        away = [o.disconnected_at for o in self.occupants.values() if o.disconnected_at is not None]
        return None if not away else min(away) + self.core.settings.reconnect_grace_seconds

    def stand_up_gone(self) -> None:
        """No hand can be dealt (a player left alone, say): whoever has been away for the
        grace period stands up now, with their chips, rather than after a hand that may
        never come; a table nobody is at then closes as any idle one does."""
        gone = [seat for seat in self.occupants if self.gone(seat)]
        for seat in gone:
            self.stand_up(seat)
        if gone:
            self.core.views.publish_summary()

    def settle(self) -> None:
        """Between hands: free the busted seats (house bots buy in again), and stand up
        whoever left during the hand or has been gone past the grace period."""
        core = self.core
        for seat in list(self.occupants):
            if seat not in core.table.occupied():  # busted: the engine stood them up
                self.vacate(seat)
                if seat in core.house.bots:  # house bots buy in again: the demo goes on
                    core.house.seat(seat)
            elif seat in self.leaving or self.gone(seat):
                self.stand_up(seat)
        self.leaving.clear()

    # -- standing up, and the ledger ---------------------------------------------------

    def stand_up(self, seat: int) -> None:
        """A player leaves with their chips (the ledger records the cash-out)."""
        stack = self.core.table.stack(seat)
        self.core.publish(self.core.table.stand_up(seat))
        self.ledger(self.occupants[seat].player.id, -stack, "cash_out")
        self.vacate(seat)

    def vacate(self, seat: int) -> None:
        occupant = self.occupants.pop(seat)
        gone = occupant.player.id
        self.tokens = {t: p for t, p in self.tokens.items() if p != gone}
        subscribers = self.core.fanout.subscribers
        if occupant.session is not None and subscribers.get(occupant.session) == seat:
            subscribers.pop(occupant.session, None)

    def ledger(self, player_id: int, amount: int, reason: str) -> None:
        """A balance change outside a hand, for the runner to record."""
        self.core.out.ledger.append((player_id, amount, reason))
        self.core.ledger_unrecorded += 1

    def cash_out_everyone(self) -> list[LedgerEntry]:
        """The table has stopped: whoever is seated leaves with their chips (the ledger's
        cash-outs), as of the last hand stored. A hand that did not finish, or could not
        be stored, never happened: its players leave with what they had before it."""
        table = self.core.table
        hand = table.hand
        void = hand is not None and table.hand_number > self.core.stored_through
        entries: list[LedgerEntry] = []
        for seat, occupant in self.occupants.items():
            stack = table.stack(seat)
            if void and hand is not None and seat in hand.seats:
                stack = hand.setup.stacks[hand.seats.index(seat)]
            entries.append((occupant.player.id, -stack, "cash_out"))
        return entries
