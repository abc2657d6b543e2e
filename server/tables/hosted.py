"""Private tables and their host (docs/home-games.md): the invite that lets people watch
and ask for a seat, the host's answers to those requests, and the host's controls: chips
added to or taken from a stack and new blinds (both from the next hand), pausing between
hands, sitting a player out or standing them up, passing the host role on, house bots,
and closing the table.

Each control is the host's alone (anyone else: ``not_host``), is recorded with who did it
and when (:attr:`record_host`, the store's ``host_actions``), and is told to everyone at
the table as a ``host_action`` message."""

from __future__ import annotations

import datetime as dt
import secrets
from functools import partial
from typing import Any

from engine import EngineError, Table
from server import protocol
from server.errors import Code
from server.tables.base import Player, SeatRequest, Subscriber, TableError
from server.tables.mixing import Mixing

_NEEDS_PLAYER = frozenset(
    {"approve", "reject", "chips", "away", "remove", "transfer", "mute", "unmute"}
)


class Hosted(Mixing):
    """A private table's invite, seat requests and host controls."""

    # -- read and set by the server -------------------------------------------------------

    def make_private(self, host: int, invite: str) -> None:
        """Before the table runs: it is private, run by the player ``host``."""
        self.host, self.invite = host, invite

    @property
    def private(self) -> bool:
        return self.invite is not None

    def require_host(self, player: Player) -> None:
        """:class:`TableError` ``not_host`` unless ``player`` is this table's host."""
        if self.host is None:
            raise TableError(
                Code.NOT_HOST, f"table {self.settings.table_id!r} is not a private table: "
                "it has no host",
            )  # fmt: skip
        if player.id != self.host:
            raise TableError(
                Code.NOT_HOST, f"only the host of table {self.settings.table_id!r} may do that"
            )

    def require_watcher(self, session: Subscriber, player: Player) -> None:
        """:class:`TableError` ``bad_invite`` unless ``player`` may see this table's
        records (its ledger, its hands): anyone at a public table; at a private one, whoever
        watches it (through the invite) or sits, asks to sit, or hosts there."""
        if session not in self.subscribers:
            self._refuse_uninvited(None, player)

    def publish_summary(self) -> None:
        """A private table's lobby line never goes on the bus: no lobby lists it."""
        if self.invite is None:
            super().publish_summary()
        elif self.bus.active:
            self._state_soon()

    @property
    def has_people(self) -> bool:
        """Someone asking for a seat, or the host watching, keeps a private table open."""
        host_here = any(s in self.subscribers for s in self.host_sessions)
        asking = any(r.session is not None for r in self.requests.values())
        return super().has_people or asking or host_here

    # -- who may watch and sit ------------------------------------------------------------

    def _invited(self, invite: str | None, player: Player | None) -> bool:
        """Whether someone may watch this table: anyone at a public table; at a private
        one, whoever has its invite, the host, and whoever sits here or asked to."""
        if self.invite is None:
            return True
        if invite is not None and secrets.compare_digest(invite, self.invite):
            return True
        return player is not None and (
            player.id == self.host
            or player.id in self.requests
            or self._seat_of_player(player) is not None
        )

    def _refuse_uninvited(self, invite: str | None, player: Player | None) -> None:
        if not self._invited(invite, player):
            raise TableError(
                Code.BAD_INVITE, f"table {self.settings.table_id!r} is private: its invite lets "
                "you watch it and ask its host for a seat",
            )  # fmt: skip

    def _cmd_spectate(
        self, session: Subscriber, invite: str | None = None, player: Player | None = None
    ) -> dict[str, Any]:
        self._refuse_uninvited(invite, player)
        reply = super()._cmd_spectate(session)
        self._came_back(session, player)
        return reply

    def _cmd_resume(
        self, session: Subscriber, player: Player, last_seq: int, invite: str | None = None
    ) -> dict[str, Any]:
        self._refuse_uninvited(invite, player)
        reply = super()._cmd_resume(session, player, last_seq)
        self._came_back(session, player)
        return reply

    def _cmd_sit(
        self, session: Subscriber, player: Player, seat: int | None, buy_in: int, wait: bool
    ) -> dict[str, Any]:
        if self.host is not None and player.id != self.host:
            raise TableError(
                Code.PRIVATE, f"table {self.settings.table_id!r} is private: ask its host for a "
                "seat (request_seat, with the invite)",
            )  # fmt: skip
        reply = super()._cmd_sit(session, player, seat, buy_in, wait)
        self._host_arrived(session, player)
        return reply

    def _cmd_disconnect(self, session: Subscriber) -> dict[str, Any]:
        self.host_sessions.discard(session)
        for request in self.requests.values():  # kept: the page reloads, and watches again
            if request.session is session:
                request.session = None
        return super()._cmd_disconnect(session)

    def _came_back(self, session: Subscriber, player: Player | None) -> None:
        """Someone watches (again: a reloaded page) from ``session``: a request of theirs
        for a seat is answered there, and the host gets the host's state there."""
        request = None if player is None else self.requests.get(player.id)
        if request is not None:
            request.session = session
        self._host_arrived(session, player)

    def _host_arrived(self, session: Subscriber, player: Player | None) -> None:
        """The host watches from ``session``: it gets the table's host state (the invite,
        the requests waiting) and, from now on, each new request."""
        if self.host is None or player is None or player.id != self.host:
            return
        self.host_sessions.add(session)
        session.send(protocol.dumps(self._host_state(player.name)))

    def _host_state(self, host: str) -> dict[str, Any]:
        return {
            "type": "host_state",
            "table": self.settings.table_id,
            "host": host,
            "invite": self.invite,
            "paused": self.paused,
            "requests": [self._request_body(r) for r in self.requests.values()],
            "muted": sorted(self.muted),
            "spectator_chat": self.spectator_chat,
        }

    def _request_body(self, request: SeatRequest) -> dict[str, Any]:
        return {"player": request.player.name, "buy_in": request.buy_in, "seat": request.seat}

    # -- seat requests --------------------------------------------------------------------

    def _cmd_request_seat(
        self, session: Subscriber, player: Player, invite: str, buy_in: int, seat: int | None
    ) -> dict[str, Any]:
        if self.invite is None:
            raise TableError(Code.ILLEGAL, f"table {self.settings.table_id!r} is public: sit")
        self._refuse_uninvited(invite, None)
        if self._seat_of_player(player) is not None:
            raise TableError(Code.ALREADY_SEATED, f"{player.name} already has a seat here")
        cfg = self.table.config
        if not cfg.min_buy_in <= buy_in <= cfg.max_buy_in:
            raise TableError(
                Code.BAD_BUY_IN,
                f"a buy-in of {buy_in} is outside {cfg.min_buy_in}..{cfg.max_buy_in}",
            )
        if seat is not None and seat >= cfg.seats:
            raise TableError(
                Code.ILLEGAL, f"seat {seat} does not exist; seats are 0..{cfg.seats - 1}"
            )
        if player.id == self.host:  # the host needs nobody's approval
            return self._cmd_sit(session, player, seat, buy_in, True)
        request = SeatRequest(player, session, buy_in, seat)
        self.requests.pop(player.id, None)  # a second request replaces the first
        self.requests[player.id] = request
        self.subscribers.setdefault(session, None)  # they watch while they wait
        self._to_host({"type": "seat_request", "table": self.settings.table_id,
                       **self._request_body(request)})  # fmt: skip
        return {"type": "seat_requested", "table": self.settings.table_id, "buy_in": buy_in,
                "seat": seat}  # fmt: skip

    def _to_host(self, message: dict[str, Any]) -> None:
        text = protocol.dumps(message)
        for session in list(self.host_sessions):
            self._deliver(session, partial(session.send, text))

    # -- the host's controls --------------------------------------------------------------

    def _cmd_host(
        self, session: Subscriber, player: Player, m: protocol.Host, bot: Any = None
    ) -> dict[str, Any]:
        """One control of the host's: checked, carried out, recorded and told to all."""
        self.require_host(player)
        self.host_sessions.add(session)
        if m.action in _NEEDS_PLAYER and m.player is None:
            raise TableError(Code.BAD_MESSAGE, f"host: {m.action} needs a player")
        details, target = getattr(self, f"_host_{m.action}")(m, bot)
        at = dt.datetime.now(dt.UTC)
        self.pending_host.append((player.id, m.action, target, details, at))
        text = protocol.dumps(
            {"type": "host_action", "table": self.settings.table_id, "by": player.name,
             "action": m.action, **details, "at": at.isoformat()}
        )  # fmt: skip
        for subscriber in list(self.subscribers):
            send = partial(subscriber.send_table, self.settings.table_id,
                           self.table.hand_number, [text])  # fmt: skip
            self._deliver(subscriber, send)
        return {"type": "host_done", "table": self.settings.table_id, "action": m.action,
                **details}  # fmt: skip

    def _seated(self, name: str | None) -> int:
        """The seat of the player called ``name`` (not a house bot)."""
        seat = next((s for s, o in self.seats.items() if o.player.name == name), None)
        if seat is None or seat in self.house:
            raise TableError(Code.NO_PLAYER, f"nobody called {name!r} sits at this table")
        return seat

    def _request_of(self, name: str | None) -> SeatRequest:
        found = next((r for r in self.requests.values() if r.player.name == name), None)
        if found is None:
            raise TableError(Code.NO_REQUEST, f"{name!r} has not asked for a seat here")
        return found

    def _host_approve(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        request = self._request_of(m.player)
        if request.session is None:
            raise TableError(
                Code.NOT_HERE, f"{request.player.name} is not connected now: let them in once "
                "they are back (their request waits)",
            )  # fmt: skip
        free = [s for s in range(self.table.config.seats) if s not in self.seats]
        if not free:
            raise TableError(Code.FULL, "every seat is taken: remove someone first")
        seat = request.seat if request.seat in free else free[0]
        del self.requests[request.player.id]
        reply = self._take_seat(request.session, request.player, seat, request.buy_in, True)
        send = partial(request.session.send, protocol.dumps(reply))
        self._deliver(request.session, send)
        return {"player": request.player.name, "seat": seat, "buy_in": request.buy_in}, (
            request.player.id
        )

    def _host_reject(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        request = self._request_of(m.player)
        del self.requests[request.player.id]
        if request.session is not None:
            text = protocol.dumps({"type": "seat_rejected", "table": self.settings.table_id})
            self._deliver(request.session, partial(request.session.send, text))
        return {"player": request.player.name}, request.player.id

    def _host_chips(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        if not m.amount:
            raise TableError(Code.BAD_MESSAGE, "host: chips needs an amount other than 0")
        player = self.seats[self._seated(m.player)].player
        self.queued_chips[player.id] = self.queued_chips.get(player.id, 0) + m.amount
        return {"player": player.name, "amount": m.amount}, player.id

    def _host_pause(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        self.paused = True
        return {}, None

    def _host_resume(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        self.paused = False
        return {}, None

    def _host_blinds(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        if m.small_blind is None or m.big_blind is None:
            raise TableError(Code.BAD_MESSAGE, "host: blinds needs small_blind and big_blind")
        if self.rotation is not None or not self.table.config.game.blinds:
            raise TableError(Code.ILLEGAL, "only a table of one game with blinds changes them")
        ante = m.ante or 0
        trial = Table(self.table.config)  # checked now: a bad level is refused, not queued
        try:
            trial.set_stakes(m.small_blind, m.big_blind, ante)
        except EngineError as exc:
            raise TableError(Code.REFUSED, str(exc)) from None
        self.queued_blinds = (m.small_blind, m.big_blind, ante)
        return {"small_blind": m.small_blind, "big_blind": m.big_blind, "ante": ante}, None

    def _host_away(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        seat = self._seated(m.player)
        self._sit_out(seat)
        return {"player": m.player}, self.seats[seat].player.id

    def _host_remove(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        seat = self._seated(m.player)
        player_id = self.seats[seat].player.id
        self._stand_up_now_or_after_hand(seat)
        return {"player": m.player}, player_id

    def _host_transfer(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        occupant = self.seats[self._seated(m.player)]
        self.host = occupant.player.id
        self.host_sessions = set()
        if occupant.session is not None:  # the new host's panel, on their connection
            self._host_arrived(occupant.session, occupant.player)
        return {"player": occupant.player.name}, occupant.player.id

    def _host_close(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        self.close_reason = "host"
        self.close_when_over = True  # once a hand being played is over: _between_hands
        return {}, None

    def _host_house_bot(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        seat = m.seat
        if seat is None or bot is None:
            raise TableError(Code.BAD_MESSAGE, "host: house_bot needs a seat and a strategy")
        if seat >= self.table.config.seats or seat in self.seats:
            raise TableError(Code.SEAT_TAKEN, f"seat {seat} is not free")
        player, strategy = bot
        if self._seat_of_player(player) is not None:
            raise TableError(Code.ALREADY_SEATED, f"{player.name} already has a seat here")
        stack = self.table.config.max_buy_in
        self.house[seat] = (player, strategy, stack)
        self._seat_house_bot(seat)
        return {"seat": seat, "player": player.name, "strategy": m.strategy}, player.id

    def _host_remove_bot(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        seat = m.seat
        if seat is None or seat not in self.house or seat not in self.seats:
            raise TableError(Code.ILLEGAL, f"no house bot sits in seat {seat}")
        player = self.seats[seat].player
        hand = self.table.hand
        if self.table.hand_in_progress and hand is not None and seat in hand.position:
            self.leaving.add(seat)
            self.bots_leaving.add(seat)
        else:
            self._stand_up(seat)
            del self.house[seat]
        return {"seat": seat, "player": player.name}, player.id

    # -- between hands --------------------------------------------------------------------

    def _between_hands(self) -> None:
        """Before a hand is dealt: the host's queued chips and blinds, and a close."""
        if self.close_when_over:  # the runner stops, and cashes everyone out
            self._closing = True
            return
        changed = bool(self.queued_chips) or self.queued_blinds is not None
        for player_id, amount in self.queued_chips.items():
            seat = next((s for s, o in self.seats.items() if o.player.id == player_id), None)
            if seat is None:
                continue  # gone meanwhile: nothing to change
            change = self.table.adjust_stack(seat, amount)
            self.pending_ledger.append((player_id, change, "host_chips"))
        self.queued_chips = {}
        if self.queued_blinds is not None:
            self.table.set_stakes(*self.queued_blinds)
            self.queued_blinds = None
        if changed:  # everyone's snapshot again: the stacks and blinds have changed
            for session, seat in list(self.subscribers.items()):
                text = protocol.dumps(self._snapshot(seat))
                send = partial(session.send_table, self.settings.table_id,
                               self.table.hand_number, [text])  # fmt: skip
                self._deliver(session, send)

    def _deals(self) -> bool:
        """Whether the next hand may be dealt: not while the host has paused the table."""
        return not self.paused

    def _settle_seats(self) -> None:
        super()._settle_seats()
        for seat in self.bots_leaving:  # house bots the host removed during the hand
            if seat in self.seats:
                self._stand_up(seat)
            self.house.pop(seat, None)
        self.bots_leaving.clear()

    async def _flush_host(self) -> None:
        """Record the host's controls, in order (each leaves the list once recorded)."""
        if self.record_host is not None:
            while self.pending_host:
                await self.record_host(self.pending_host[0])
                self.pending_host.pop(0)
