"""Private tables and their host (docs/home-games.md): the invite that lets people watch
and ask for a seat, the host's answers to those requests, and the host's controls: chips
added to or taken from a stack and new blinds (both from the next hand), pausing between
hands, sitting a player out or standing them up, passing the host role on, house bots,
and closing the table.

Each control is the host's alone (anyone else: ``not_host``), is recorded with who did it
and when (the runner's ``record_host``, the store's ``host_actions``), and is told to everyone at
the table as a ``host_action`` message."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine import EngineError, Table
from server import protocol
from server.errors import Code
from server.tables.base import Done, Player, SeatRequest, Subscriber, TableError
from server.tables.messages import AddHouseBot, Caller

if TYPE_CHECKING:
    from server.tables.core import TableCore

_NEEDS_PLAYER = frozenset(
    {"approve", "reject", "chips", "away", "remove", "transfer", "mute", "unmute"}
)


class HostControls:
    """A private table's host, invite, seat requests, and the host's controls."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.host: int | None = None  # the host's player id; a public table has none
        self.invite: str | None = None
        self.requests: dict[int, SeatRequest] = {}  # by player id, in the order asked
        self.sessions: set[Subscriber] = set()  # the host's connections here
        self.paused = False  # no hand is dealt while paused
        self.queued_chips: dict[int, int] = {}  # player id -> chips for the next hand
        self.queued_blinds: tuple[int, int, int] | None = None  # for the next hand
        self.close_when_over = False  # the host closed the table mid-hand
        self.controls: dict[str, Callable[[protocol.Host], Done]] = {
            "approve": self._approve, "reject": self._reject, "chips": self._chips,
            "pause": self._pause, "resume": self._resume, "blinds": self._blinds,
            "away": self._away, "remove": self._remove, "transfer": self._transfer,
            "close": self._close, "remove_bot": core.house.remove, "mute": core.chat.mute,
            "unmute": core.chat.unmute, "spectator_chat": core.chat.spectators,
            "bomb_pot": self._bomb_pot,
        }  # fmt: skip
        """Each ``host`` action and what carries it out (``house_bot`` comes with the
        bot the server made for it: :class:`AddHouseBot`)."""

    # -- who hosts, and who may watch -------------------------------------------------------

    def make_private(self, host: int, invite: str) -> None:
        """Before the table runs: it is private, run by the player ``host``."""
        self.host, self.invite = host, invite

    @property
    def private(self) -> bool:
        return self.invite is not None

    def require_host(self, player: Player) -> None:
        """:class:`TableError` ``not_host`` unless ``player`` is this table's host."""
        table_id = self.core.table_id
        if self.host is None:
            raise TableError(
                Code.NOT_HOST, f"table {table_id!r} is not a private table: it has no host"
            )
        if player.id != self.host:
            raise TableError(Code.NOT_HOST, f"only the host of table {table_id!r} may do that")

    def require_watcher(self, session: Subscriber, player: Player) -> None:
        """:class:`TableError` ``bad_invite`` unless ``player`` may see this table's
        records (its ledger, its hands): anyone at a public table; at a private one, whoever
        watches it (through the invite) or sits, asks to sit, or hosts there."""
        if session not in self.core.fanout.subscribers:
            self.refuse_uninvited(None, player)

    def require_public_or_host(self, player: Player) -> None:
        """At a private table only the host sits without asking."""
        if self.host is not None and player.id != self.host:
            raise TableError(
                Code.PRIVATE, f"table {self.core.table_id!r} is private: ask its host for a "
                "seat (request_seat, with the invite)",
            )  # fmt: skip

    def invited(self, invite: str | None, player: Player | None) -> bool:
        """Whether someone may watch this table: anyone at a public table; at a private
        one, whoever has its invite, the host, and whoever sits here or asked to."""
        if self.invite is None:
            return True
        if invite is not None and secrets.compare_digest(invite, self.invite):
            return True
        return player is not None and (
            player.id == self.host
            or player.id in self.requests
            or self.core.seats.of_player(player) is not None
        )

    def refuse_uninvited(self, invite: str | None, player: Player | None) -> None:
        if not self.invited(invite, player):
            raise TableError(
                Code.BAD_INVITE, f"table {self.core.table_id!r} is private: its invite lets "
                "you watch it and ask its host for a seat",
            )  # fmt: skip

    @property
    def has_people(self) -> bool:
        """Someone asking for a seat, or the host watching, keeps a private table open."""
        subscribers = self.core.fanout.subscribers
        host_here = any(s in subscribers for s in self.sessions)
        return host_here or any(r.session is not None for r in self.requests.values())

    def disconnected(self, session: Subscriber) -> None:
        self.sessions.discard(session)
        for request in self.requests.values():  # kept: the page reloads, and watches again
            if request.session is session:
                request.session = None

    def came_back(self, session: Subscriber, player: Player | None) -> None:
        """Someone watches (again: a reloaded page) from ``session``: a request of theirs
        for a seat is answered there, and the host gets the host's state there."""
        request = None if player is None else self.requests.get(player.id)
        if request is not None:
            request.session = session
        self.arrived(session, player)

    def arrived(self, session: Subscriber, player: Player | None) -> None:
        """The host watches from ``session``: it gets the table's host state (the invite,
        the requests waiting) and, from now on, each new request."""
        if self.host is None or player is None or player.id != self.host:
            return
        self.sessions.add(session)
        self.core.fanout.send(session, self._host_state(player.name))

    def _host_state(self, host: str) -> dict[str, Any]:
        return {
            "type": "host_state",
            "table": self.core.table_id,
            "host": host,
            "invite": self.invite,
            "paused": self.paused,
            "requests": [_request_body(r) for r in self.requests.values()],
            "muted": sorted(self.core.chat.muted),
            "spectator_chat": self.core.chat.spectators_may_chat,
        }

    # -- seat requests --------------------------------------------------------------------

    def request_seat(self, m: protocol.RequestSeat, caller: Caller) -> dict[str, Any]:
        core, player, session = self.core, caller.player, caller.subscriber
        if self.invite is None:
            raise TableError(Code.ILLEGAL, f"table {core.table_id!r} is public: sit")
        self.refuse_uninvited(m.invite, None)
        if core.seats.of_player(player) is not None:
            raise TableError(Code.ALREADY_SEATED, f"{player.name} already has a seat here")
        core.seats.check_buy_in(m.buy_in)
        seats = core.table.config.seats
        if m.seat is not None and m.seat >= seats:
            raise TableError(
                Code.ILLEGAL, f"seat {m.seat} does not exist; seats are 0..{seats - 1}"
            )
        if player.id == self.host:  # the host needs nobody's approval
            reply = core.seats.sit_down(session, player, m.seat, m.buy_in, True)
            self.arrived(session, player)
            return reply
        request = SeatRequest(player, session, m.buy_in, m.seat)
        self.requests.pop(player.id, None)  # a second request replaces the first
        self.requests[player.id] = request
        core.fanout.subscribers.setdefault(session, None)  # they watch while they wait
        self._to_host({"type": "seat_request", "table": core.table_id, **_request_body(request)})
        return {"type": "seat_requested", "table": core.table_id, "buy_in": m.buy_in,
                "seat": m.seat}  # fmt: skip

    def _to_host(self, message: dict[str, Any]) -> None:
        for session in self.sessions:
            self.core.fanout.send(session, message)

    # -- the host's controls --------------------------------------------------------------

    def control(self, m: protocol.Host | AddHouseBot, caller: Caller) -> dict[str, Any]:
        """One control of the host's: checked, carried out, recorded and told to all."""
        core, player = self.core, caller.player
        host = m.host if isinstance(m, AddHouseBot) else m
        self.require_host(player)
        self.sessions.add(caller.subscriber)
        if host.action in _NEEDS_PLAYER and host.player is None:
            raise TableError(Code.BAD_MESSAGE, f"host: {host.action} needs a player")
        if isinstance(m, AddHouseBot):
            details, target = core.house.add(m)
        elif m.action == "house_bot":  # the server makes the bot first (AddHouseBot)
            raise TableError(Code.BAD_MESSAGE, "host: house_bot needs a seat and a strategy")
        else:
            details, target = self.controls[m.action](m)
        at = core.wall()
        core.out.host_records.append((player.id, host.action, target, details, at))
        text = protocol.dumps(
            {"type": "host_action", "table": core.table_id, "by": player.name,
             "action": host.action, **details, "at": at.isoformat()}
        )  # fmt: skip
        for subscriber in core.fanout.subscribers:
            core.fanout.send_table(subscriber, [text])
        return {"type": "host_done", "table": core.table_id, "action": host.action, **details}

    def _seated(self, name: str | None) -> int:
        """The seat of the player called ``name`` (not a house bot)."""
        core = self.core
        seat = next((s for s, o in core.seats.occupants.items() if o.player.name == name), None)
        if seat is None or seat in core.house.bots:
            raise TableError(Code.NO_PLAYER, f"nobody called {name!r} sits at this table")
        return seat

    def _request_of(self, name: str | None) -> SeatRequest:
        found = next((r for r in self.requests.values() if r.player.name == name), None)
        if found is None:
            raise TableError(Code.NO_REQUEST, f"{name!r} has not asked for a seat here")
        return found

    def _approve(self, m: protocol.Host) -> Done:
        core = self.core
        request = self._request_of(m.player)
        if request.session is None:
            raise TableError(
                Code.NOT_HERE, f"{request.player.name} is not connected now: let them in once "
                "they are back (their request waits)",
            )  # fmt: skip
        free = core.seats.free()
        if not free:
            raise TableError(Code.FULL, "every seat is taken: remove someone first")
        seat = request.seat if request.seat in free else free[0]
        del self.requests[request.player.id]
        reply = core.seats.take(request.session, request.player, seat, request.buy_in, True)
        core.fanout.send(request.session, reply)
        details = {"player": request.player.name, "seat": seat, "buy_in": request.buy_in}
        return details, request.player.id

    def _reject(self, m: protocol.Host) -> Done:
        request = self._request_of(m.player)
        del self.requests[request.player.id]
        if request.session is not None:
            rejected = {"type": "seat_rejected", "table": self.core.table_id}
            self.core.fanout.send(request.session, rejected)
        return {"player": request.player.name}, request.player.id

    def _chips(self, m: protocol.Host) -> Done:
        if not m.amount:
            raise TableError(Code.BAD_MESSAGE, "host: chips needs an amount other than 0")
        player = self.core.seats.occupants[self._seated(m.player)].player
        self.queued_chips[player.id] = self.queued_chips.get(player.id, 0) + m.amount
        return {"player": player.name, "amount": m.amount}, player.id

    def _pause(self, m: protocol.Host) -> Done:
        self.paused = True
        return {}, None

    def _resume(self, m: protocol.Host) -> Done:
        self.paused = False
        return {}, None

    def _blinds(self, m: protocol.Host) -> Done:
        if m.small_blind is None or m.big_blind is None:
            raise TableError(Code.BAD_MESSAGE, "host: blinds needs small_blind and big_blind")
        core = self.core
        if core.rotation.rotation is not None or not core.table.config.game.blinds:
            raise TableError(Code.ILLEGAL, "only a table of one game with blinds changes them")
        ante = m.ante or 0
        trial = Table(core.table.config)  # checked now: a bad level is refused, not queued
        try:
            trial.set_stakes(m.small_blind, m.big_blind, ante)
        except EngineError as exc:
            raise TableError(Code.REFUSED, str(exc)) from None
        self.queued_blinds = (m.small_blind, m.big_blind, ante)
        return {"small_blind": m.small_blind, "big_blind": m.big_blind, "ante": ante}, None

    def _away(self, m: protocol.Host) -> Done:
        seat = self._seated(m.player)
        self.core.seats.sit_out_seat(seat)
        return {"player": m.player}, self.core.seats.occupants[seat].player.id

    def _remove(self, m: protocol.Host) -> Done:
        seat = self._seated(m.player)
        player_id = self.core.seats.occupants[seat].player.id
        self.core.seats.stand_up_now_or_after_hand(seat)
        return {"player": m.player}, player_id

    def _transfer(self, m: protocol.Host) -> Done:
        occupant = self.core.seats.occupants[self._seated(m.player)]
        self.host = occupant.player.id
        self.sessions = set()
        if occupant.session is not None:  # the new host's panel, on their connection
            self.arrived(occupant.session, occupant.player)
        return {"player": occupant.player.name}, occupant.player.id

    def _close(self, m: protocol.Host) -> Done:
        self.core.close_reason = "host"
        self.close_when_over = True  # once a hand being played is over: between_hands
        return {}, None

    def _bomb_pot(self, m: protocol.Host) -> Done:
        return {"boards": self.core.options.call_bomb_pot(m.boards)}, None

    # -- between hands --------------------------------------------------------------------

    def between_hands(self) -> None:
        """Before a hand is dealt: the host's queued chips and blinds, and a close."""
        core = self.core
        if self.close_when_over:  # the runner stops, and cashes everyone out
            core.closing = True
            return
        changed = bool(self.queued_chips) or self.queued_blinds is not None
        for player_id, amount in self.queued_chips.items():
            seat = next((s for s, o in core.seats.occupants.items() if o.player.id == player_id),
                        None)  # fmt: skip
            if seat is None:
                continue  # gone meanwhile: nothing to change
            change = core.table.adjust_stack(seat, amount)
            core.seats.ledger(player_id, change, "host_chips")
        self.queued_chips = {}
        if self.queued_blinds is not None:
            core.table.set_stakes(*self.queued_blinds)
            self.queued_blinds = None
        if changed:  # everyone's snapshot again: the stacks and blinds have changed
            for session, seat in core.fanout.subscribers.items():
                core.fanout.send_table(session, [protocol.dumps(core.views.snapshot(seat))])


def _request_body(request: SeatRequest) -> dict[str, Any]:
    return {"player": request.player.name, "buy_in": request.buy_in, "seat": request.seat}
