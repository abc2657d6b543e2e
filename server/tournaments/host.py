"""Tournaments scheduled on a running server, for bots connected over websockets.

A player creates one (``create_tournament``); bots ``register`` through the lobby; it
starts when its field is full (or at its start time, with two or more). Then the
:class:`TournamentDirector` runs it with a :class:`RemoteAgent` per player: each
decision is an ``action_request`` like a cash table's, answered with ``act``; each
player gets their table's events redacted for their seat, a ``tournament_seat`` with a
snapshot whenever they are seated (at the start, when tables are balanced, and at each
deal of a ring match), and the standings (``tournament_standings``, also retained on
the bus). Hands and results are stored as the command line stores them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import (
    Action,
    ActionMenu,
    BetOrRaiseTo,
    Event,
    GameChange,
    PlayerStood,
    Table,
    TableView,
    redact,
)
from server import protocol
from server.bus import EventBus
from server.errors import Code
from server.store import Store
from server.tables import Player, Subscriber, TableError, action_from_wire
from server.tournaments.director import (
    Entrant,
    HandPlayed,
    Results,
    TournamentConfig,
    TournamentDirector,
)
from server.tournaments.record import HandRecorder

log = logging.getLogger("pokerroom")

__all__ = ["RemoteAgent", "TournamentHost"]


@dataclass
class _Decision:
    seq: int
    menu: ActionMenu
    answer: asyncio.Future[Action]


class RemoteAgent:
    """A registered player's decisions, asked over their connection. No answer within the
    decision time (or no connection) is a timeout: the director checks or folds."""

    def __init__(self, host: TournamentHost, player: Player) -> None:
        self.host = host
        self.player = player

    async def decide(self, table: str, view: TableView, menu: ActionMenu) -> Action:
        host = self.host
        table_id = host.table_id(table)
        seq = host.seqs.get(table, 0)
        answer: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        host.decisions[(self.player.id, table_id)] = _Decision(seq, menu, answer)
        request = {
            "type": "action_request", "table": table_id, "seq": seq,
            "hand_number": view.hand_number, "seat": menu.seat, "menu": protocol.menu_body(menu),
            "decision_seconds": host.decision_seconds, "time_bank_seconds": 0.0,
        }  # fmt: skip
        session = host.sessions.get(self.player.id)
        if session is not None:
            session.send(protocol.dumps(request), urgent=True)
        try:
            async with asyncio.timeout(host.decision_seconds):
                return await answer
        finally:
            host.decisions.pop((self.player.id, table_id), None)


@dataclass
class TournamentHost:
    """One tournament on the server: registration, then play, then results."""

    id: int
    name: str
    config: TournamentConfig
    settings: dict[str, Any]
    """What it was created with, as stored and listed."""
    creator: int
    field_size: int
    """It starts as soon as this many have registered..."""
    start_seconds: float | None
    """...or this long after it was created, with two or more (None: only when full)."""
    decision_seconds: float
    store: Store
    bus: EventBus
    clock: Callable[[], float] = time.monotonic
    state: str = "registering"
    registered: dict[int, Player] = field(default_factory=dict)
    sessions: dict[int, Subscriber] = field(default_factory=dict)
    decisions: dict[tuple[int, str], _Decision] = field(default_factory=dict)
    seqs: dict[str, int] = field(default_factory=dict)
    seats: dict[str, dict[int, int]] = field(default_factory=dict)  # table -> seat -> player
    results: Results | None = None

    def __post_init__(self) -> None:
        self.created = self.clock()
        self.full = asyncio.Event()
        self.director: TournamentDirector | None = None
        self.task: asyncio.Task[None] | None = None

    def table_id(self, table: str) -> str:
        return f"t{self.id}-{table}"

    # -- the lobby -------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        starts_in = None
        if self.state == "registering" and self.start_seconds is not None:
            starts_in = max(0.0, round(self.start_seconds - (self.clock() - self.created), 1))
        settings = self.settings
        if self.state in ("registering", "running"):  # the seed decides every deck
            settings = {k: v for k, v in settings.items() if k != "seed"}
        return {
            "id": self.id, "name": self.name, "state": self.state, "settings": settings,
            "registered": self._who()["registered"], "field": self.field_size,
            "starts_in_seconds": starts_in,
        }  # fmt: skip

    def register(self, player: Player, session: Subscriber) -> dict[str, Any]:
        """Enter the tournament; registering again (after reconnecting) moves the player's
        messages to this connection."""
        if player.id not in self.registered:
            if self.state != "registering":
                raise TableError(Code.CLOSED, f"tournament {self.id} has started: too late")
            if len(self.registered) >= self.field_size:
                raise TableError(Code.FULL, f"tournament {self.id} is full")
        self.registered[player.id] = player
        self.sessions[player.id] = session
        if len(self.registered) >= self.field_size:
            self.full.set()
        return {"type": "registered", **self._who()}

    def unregister(self, player: Player) -> dict[str, Any]:
        if self.state != "registering":
            raise TableError(
                Code.CLOSED, f"tournament {self.id} has started: it cannot be left now"
            )
        if self.registered.pop(player.id, None) is None:
            raise TableError(
                Code.NOT_REGISTERED, f"you are not registered for tournament {self.id}"
            )
        self.sessions.pop(player.id, None)
        return {"type": "unregistered", **self._who()}

    def _who(self) -> dict[str, Any]:
        names = sorted(p.name for p in self.registered.values())
        return {"tournament": self.id, "registered": names, "field": self.field_size}

    def disconnected(self, session: Subscriber) -> None:
        for player_id, s in list(self.sessions.items()):
            if s is session:
                del self.sessions[player_id]
                if self.state == "registering":  # a bot that is gone does not play
                    self.registered.pop(player_id, None)

    def act(self, player: Player, m: protocol.Act) -> dict[str, Any]:
        """A player's answer to their open decision at one of this tournament's tables."""
        decision = self.decisions.get((player.id, m.table))
        if decision is None or decision.answer.done():
            raise TableError(Code.NOT_YOUR_TURN, f"no decision of yours is open at {m.table}")
        if m.seq is not None and m.seq != decision.seq:
            raise TableError(Code.STALE, f"the decision of seq {m.seq} is over")
        move = action_from_wire(decision.menu, m.action, m.amount, m.discard)
        menu = decision.menu
        if isinstance(move, BetOrRaiseTo) and not (
            menu.can_raise and menu.min_raise_to <= move.amount <= menu.max_raise_to
        ):  # the director plays what it is given: refuse here what the table would
            bounds = f"{menu.min_raise_to}..{menu.max_raise_to}" if menu.can_raise else "none"
            raise TableError(Code.ILLEGAL, f"a raise to {move.amount} is outside {bounds}")
        decision.answer.set_result(move)
        return {"type": "ack", "table": m.table, "action_id": m.action_id}

    # -- running -------------------------------------------------------------------------------

    async def run(self, writer: Any) -> None:
        """Wait for the field, play, and report; a failure ends this tournament only."""
        try:
            if self.start_seconds is None:
                await self.full.wait()
            else:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(self.start_seconds):
                        await self.full.wait()
            if len(self.registered) < 2:
                self.state = "cancelled"
                self._tell_all({"type": "tournament_finished", "tournament": self.id,
                                "state": "cancelled", "standings": []})  # fmt: skip
                return
            self.state = "running"
            await self._play(writer)
        except Exception:
            log.exception("tournament %d failed", self.id)
            self.state = "failed"
            self._tell_all({"type": "tournament_finished", "tournament": self.id,
                            "state": "failed", "standings": []})  # fmt: skip

    async def _play(self, writer: Any) -> None:
        entrants = [Entrant(p.name, RemoteAgent(self, p)) for p in self.registered.values()]
        recorder = HandRecorder(self.store, writer, self.id, self.bus)
        director = TournamentDirector(
            self.config, entrants, on_hand=self._hand_done(recorder), observer=self,
            clock=self.clock,
        )  # fmt: skip
        self.director = director
        self._tell_all({"type": "tournament_started", **self._who()})
        self.results = await director.run()
        self.state = "finished"
        await self.store.finish_tournament(self.id, self.results.to_json())
        final = [
            {"place": s.place, "name": s.name, "prize": s.prize, "chips": s.chips,
             "hands": s.hands}
            for s in self.results.standings
        ]  # fmt: skip
        self._standings(final)
        self._tell_all({"type": "tournament_finished", "tournament": self.id,
                        "state": "finished", "standings": final})  # fmt: skip

    def _hand_done(self, recorder: HandRecorder) -> Callable[[HandPlayed], Any]:
        async def done(played: HandPlayed) -> None:
            await recorder(played)
            assert self.director is not None
            self._standings(self.director.standings_now())

        return done

    def _standings(self, standings: list[dict[str, Any]]) -> None:
        body = {"type": "tournament_standings", "tournament": self.id, "state": self.state,
                "standings": standings}  # fmt: skip
        text = protocol.dumps(body)
        for session in list(self.sessions.values()):
            session.send(text)
        self.bus.publish(self.bus.topics.tournament(self.id), text.encode(), retain=True)

    def _tell_all(self, body: dict[str, Any]) -> None:
        text = protocol.dumps(body)
        for session in list(self.sessions.values()):
            session.send(text)
        if body["type"] == "tournament_finished":
            self.bus.publish(self.bus.topics.tournament(self.id), text.encode(), retain=True)

    # -- what the players see (the director's observer) ----------------------------------------

    def seated(self, table: str, engine_table: Table, seat: int, name: str) -> None:
        player = next(p for p in self.registered.values() if p.name == name)
        self.seats.setdefault(table, {})[seat] = player.id
        session = self.sessions.get(player.id)
        if session is None:
            return
        names = {s: self.registered[pid].name for s, pid in self.seats[table].items()}
        table_id = self.table_id(table)
        cfg = engine_table.config
        snapshot = {
            "type": "snapshot", "table": table_id, "seq": self.seqs.get(table, 0),
            "view": protocol.view_body(engine_table.view(seat), names),
            "summary": {
                "id": table_id, "name": table_id, **protocol.game_body(cfg),
                **self._mix_body(table), "small_blind": cfg.small_blind,
                "big_blind": cfg.big_blind, "ante": cfg.ante, "seats": cfg.seats,
                "min_buy_in": cfg.min_buy_in, "max_buy_in": cfg.max_buy_in,
                "ante_kind": cfg.ante_kind.value, "button_rule": cfg.button_rule.value,
            },
        }  # fmt: skip
        session.send(protocol.dumps(
            {"type": "tournament_seat", "tournament": self.id, "table": table_id, "seat": seat,
             "snapshot": snapshot}
        ))  # fmt: skip

    def _mix_body(self, table: str) -> dict[str, Any]:
        """A mixed game's rotation, for a table's summary: its name and games, and how it
        changes (docs/tournaments.md)."""
        mixed = self.config.mixed
        if mixed is None:
            return {}
        by = "orbit" if mixed.change is GameChange.ORBIT else "hands"
        body: dict[str, Any] = {"name": mixed.name, "games": [g.key for g in mixed.games],
                                "every": mixed.hands, "by": by}  # fmt: skip
        rotation = None if self.director is None else self.director.rotations.get(table)
        if rotation is not None:  # a freeze-out's table (a ring match changes by deals)
            body["hands_left"] = rotation.hands_left
        return {"mix": body}

    def events(self, table: str, engine_table: Table, events: Sequence[Event]) -> None:
        seats = self.seats.setdefault(table, {})
        table_id = self.table_id(table)
        hand_number = engine_table.hand_number
        state = protocol.state_body(engine_table.public_state())  # after the last event
        for i, event in enumerate(events):
            seq = self.seqs[table] = self.seqs.get(table, 0) + 1
            for seat, player_id in list(seats.items()):
                session = self.sessions.get(player_id)
                if session is not None:
                    session.send(protocol.event_message(
                        table_id, seq, hand_number, redact(event, seat),
                        state if i == len(events) - 1 else None,
                    ))  # fmt: skip
            if isinstance(event, PlayerStood):
                seats.pop(event.seat, None)
