"""Who sits where: sitting down, the waiting list, sitting out and in, leaving,
disconnections and the grace period, resuming on a new connection; and the ledger of
buy-ins and cash-outs that seating writes."""

from __future__ import annotations

import logging
import secrets
from collections import deque
from typing import Any

from engine import EngineError
from server import protocol
from server.errors import Code
from server.tables.base import Player, Seat, Subscriber, TableError
from server.tables.views import Views

log = logging.getLogger("pokerroom")


class Seating(Views):
    """Seats, the waiting list and the ledger."""

    # -- read by the server -----------------------------------------------------------

    def seat_of_player(self, player: Player) -> int | None:
        """The seat ``player`` holds here, if any (read by the server's sessions)."""
        return self._seat_of_player(player)

    @property
    def has_people(self) -> bool:
        """Whether anyone but a house bot is seated here, or waiting for a seat."""
        return bool(self.waiting) or any(s not in self.house for s in self.seats)

    @property
    def ever_seated(self) -> bool:
        """Whether anyone but a house bot has sat here."""
        return self._ever_seated

    def player_of_seat_token(self, token: str) -> Player | None:
        """Who holds the seat ``token`` was given for, if they still hold it (read by the
        server: a ``hello`` with a seat token)."""
        for known, player_id in self.seat_tokens.items():
            if secrets.compare_digest(known, token):
                return next(
                    (s.player for s in self.seats.values() if s.player.id == player_id), None
                )
        return None

    def _seat_of_player(self, player: Player) -> int | None:
        return next((s for s, seat in self.seats.items() if seat.player.id == player.id), None)

    def _seat_of(self, session: Subscriber | None) -> int | None:
        return next((s for s, seat in self.seats.items() if seat.session is session), None)

    def _require_seat(self, session: Subscriber | None) -> int:
        seat = self._seat_of(session)
        if seat is None:
            raise TableError(Code.NOT_SEATED, "you have no seat at this table")
        return seat

    # -- sitting down -----------------------------------------------------------------

    def _cmd_sit(
        self, session: Subscriber, player: Player, seat: int | None, buy_in: int, wait: bool
    ) -> dict[str, Any]:
        if self._seat_of_player(player) is not None:
            raise TableError(Code.ALREADY_SEATED, f"{player.name} already has a seat here")
        free = [s for s in range(self.settings.config.seats) if s not in self.seats]
        cfg = self.settings.config
        if not cfg.min_buy_in <= buy_in <= cfg.max_buy_in:
            raise TableError(
                Code.BAD_BUY_IN,
                f"a buy-in of {buy_in} is outside {cfg.min_buy_in}..{cfg.max_buy_in}",
            )
        if seat is None:
            if not free:
                if any(p.id == player.id for p, _, _ in self.waiting):
                    raise TableError(Code.ALREADY_WAITING, "you are on the waiting list already")
                self.waiting.append((player, buy_in, session))
                return {
                    "type": "waiting",
                    "table": self.settings.table_id,
                    "position": len(self.waiting),
                }
            seat = free[0]
        return self._take_seat(session, player, seat, buy_in, wait)

    def _take_seat(
        self, session: Subscriber, player: Player, seat: int, buy_in: int, wait: bool
    ) -> dict[str, Any]:
        if seat in self.seats:
            raise TableError(Code.SEAT_TAKEN, f"seat {seat} is taken")
        events = self.table.sit_down(seat, buy_in, wait_for_big_blind=wait)
        # A player sees their own table live: what a delay held back comes out first.
        session.stop_delay(self.settings.table_id)
        self.waiting = deque(w for w in self.waiting if w[0].id != player.id)
        self.seats[seat] = Seat(player, session, self.settings.time_bank_seconds, self.seq)
        self._ever_seated = True
        self.pending_ledger.append((player.id, buy_in, "buy_in"))
        self.subscribers[session] = seat
        self._publish(events)
        self._joined(seat)
        session.send(protocol.dumps(self._snapshot(seat)))
        # The seat's token brings its player back to it from a new page, without logging in
        # (a hello with it, then resume); it lasts while they hold the seat.
        token = secrets.token_urlsafe(24)
        self.seat_tokens[token] = player.id
        return {"type": "seated", "table": self.settings.table_id, "seat": seat, "stack": buy_in,
                "seat_token": token}  # fmt: skip

    def _seat_waiting_players(self) -> None:
        free = [s for s in range(self.settings.config.seats) if s not in self.seats]
        while self.waiting and free:
            player, buy_in, session = self.waiting.popleft()
            try:
                self._take_seat(session, player, free.pop(0), buy_in, wait=True)
            except (TableError, EngineError):
                continue

    # -- sitting out, leaving, coming back ---------------------------------------------

    def _cmd_sit_out(self, session: Subscriber) -> dict[str, Any]:
        seat = self._require_seat(session)
        self._publish(self.table.sit_out(seat))
        return {"type": "sat_out", "table": self.settings.table_id, "seat": seat}

    def _cmd_sit_in(self, session: Subscriber, post: bool) -> dict[str, Any]:
        seat = self._require_seat(session)
        self.seats[seat].timeouts = 0
        self._publish(self.table.sit_in(seat, post=post))
        return {"type": "sat_in", "table": self.settings.table_id, "seat": seat}

    def _sit_out(self, seat: int) -> None:
        if seat in self.table.occupied() and not self.table.is_sitting_out(seat):
            self._publish(self.table.sit_out(seat))

    @property
    def unsettled(self) -> bool:
        """A hand is being played, or is over and not stored yet (storing.py): who leaves
        it stands up once it is stored."""
        return self.table.hand_in_progress or self.table.hand_number > self._stored_through

    def _cmd_leave(self, session: Subscriber) -> dict[str, Any]:
        seat = self._seat_of(session)
        self.waiting = deque(w for w in self.waiting if w[2] is not session)
        if seat is None:
            self.subscribers.pop(session, None)
            return {"type": "left", "table": self.settings.table_id}
        if not self._stand_up_now_or_after_hand(seat):
            return {"type": "leaving", "table": self.settings.table_id, "seat": seat}
        self.subscribers.pop(session, None)
        return {"type": "left", "table": self.settings.table_id, "seat": seat}

    def _stand_up_now_or_after_hand(self, seat: int) -> bool:
        """Stand a seat up now (True), or once the hand it is dealt into is over and
        stored: folded (or checked, when free) now if it is their turn, else as soon as
        the action reaches them (the history keeps the turn order)."""
        hand = self.table.hand
        if self.unsettled and hand is not None and seat in hand.position:
            self.leaving.add(seat)
            return False
        self._stand_up(seat)
        return True

    def _cmd_disconnect(self, session: Subscriber) -> dict[str, Any]:
        """The connection dropped: the seat is kept for the grace period."""
        self.subscribers.pop(session, None)
        seat = self._seat_of(session)
        if seat is not None:
            self.seats[seat].session = None
            self.seats[seat].disconnected_at = self.clock()
        self.waiting = deque(w for w in self.waiting if w[2] is not session)
        return {}

    def _cmd_resume(self, session: Subscriber, player: Player, last_seq: int) -> dict[str, Any]:
        seat = self._seat_of_player(player)
        if seat is not None:  # the player's seat follows them to the new connection
            old = self.seats[seat].session
            if old is not None and old is not session:
                self.subscribers.pop(old, None)
            self.seats[seat].session = session
            self.seats[seat].disconnected_at = None
            self._absent.discard(seat)  # back: asked again
            self._resend = seat  # ask again on the new connection; the clock runs on
        return self._resumed(session, seat, last_seq)

    def _gone(self, seat: int) -> bool:
        """Disconnected for the grace period: the seat goes to someone else."""
        away = self.seats[seat].disconnected_at
        return away is not None and self.clock() - away >= self.settings.reconnect_grace_seconds

    def _gone_in(self) -> float | None:
        """Seconds until the first disconnected player's grace period runs out (0: it
        has), None when nobody seated is away."""
        away = [s.disconnected_at for s in self.seats.values() if s.disconnected_at is not None]
        if not away:
            return None
        return max(0.0, min(away) + self.settings.reconnect_grace_seconds - self.clock())

    def _stand_up_gone(self) -> None:
        """No hand can be dealt (a player left alone, say): whoever has been away for the
        grace period stands up now, with their chips, rather than after a hand that may
        never come; a table nobody is at then closes as any idle one does."""
        gone = [seat for seat in self.seats if self._gone(seat)]
        for seat in gone:
            self._stand_up(seat)
        if gone:
            self.publish_summary()

    # -- standing up, and the ledger ---------------------------------------------------

    def _stand_up(self, seat: int) -> None:
        """A player leaves with their chips (the ledger records the cash-out)."""
        stack = self.table.stack(seat)
        self._publish(self.table.stand_up(seat))
        self.pending_ledger.append((self.seats[seat].player.id, -stack, "cash_out"))
        self._free(seat)

    def _free(self, seat: int) -> None:
        occupant = self.seats.pop(seat)
        gone = occupant.player.id
        self.seat_tokens = {t: p for t, p in self.seat_tokens.items() if p != gone}
        if occupant.session is not None and self.subscribers.get(occupant.session) == seat:
            self.subscribers.pop(occupant.session, None)

    async def _flush_ledger(self) -> None:
        if self.record_ledger is not None:
            while self.pending_ledger:  # an entry leaves the list once it is recorded
                await self.record_ledger(*self.pending_ledger[0])
                self.pending_ledger.pop(0)

    async def _cash_out_everyone(self) -> None:
        """The table has stopped: whoever is seated leaves with their chips (the ledger's
        cash-outs), as of the last hand stored. A hand that did not finish, or could not
        be stored, never happened: its players leave with what they had before it."""
        hand = self.table.hand
        void = hand is not None and self.table.hand_number > self._stored_through
        for seat, occupant in self.seats.items():
            stack = self.table.stack(seat)
            if void and hand is not None and seat in hand.seats:
                stack = hand.setup.stacks[hand.seats.index(seat)]
            self.pending_ledger.append((occupant.player.id, -stack, "cash_out"))
        try:
            await self._flush_ledger()
        except Exception:  # the database is gone: say what it owes, for the operator
            for player_id, amount, reason in self.pending_ledger:
                log.error(
                    "table %s: ledger entry not recorded: player %d, %s %d",
                    self.settings.table_id, player_id, reason, amount,
                )  # fmt: skip
