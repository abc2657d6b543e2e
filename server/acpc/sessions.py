"""The gateway's side at our server: the bot SDK's clients, their decisions taken by the
ACPC bot through a :class:`server.acpc.bridge.Bridge` instead of a bot's ``act``.

- :class:`TableSeat` keeps a seat at an ordinary table
  (:class:`server.bots.client.BotClient`: hello, sit with a buy-in, resume after a
  reconnection, leave after ``hands`` hands);
- :class:`TournamentSeat` plays a tournament
  (:class:`server.bots.tournament_client.TournamentClient`: register, then whatever table
  the tournament seats it at).

Every event the seat sees goes to the bridge, in order (after a reconnection, the events
it missed first); each ``action_request`` waits for the bridge's answer beside the
reading loop, so that our table's clock can act first. A decision the bridge fails on
(it should not) is answered safely, check or fold, and logged: it never costs the task.

A bot our table sits out for not answering in time (its clock acted for it, the
table's ``timeouts_to_sit_out`` decisions in a row) is not sat in again: an ACPC bot speaks
only when sent a line, which a seat sitting out is not, so it could never show it is
back. The seat leaves the table instead (``timeout``), as a timeout ends an ACPC match.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from engine import Action as EngineAction
from engine import ActionMenu, TableView
from server.acpc.bridge import Bridge, safe_action
from server.bots.client import BotClient
from server.bots.decisions import Decision
from server.bots.tournament_client import TournamentClient
from server.bots.wire import act_message, menu_from_json

__all__ = ["TableSeat", "TournamentSeat"]

log = logging.getLogger("pokerroom.acpc")


async def _decide(bridge: Bridge, menu: ActionMenu, player: str | None) -> EngineAction | None:
    """The bridge's action, or the safe one if translating the bot's reply failed."""
    try:
        return await bridge.decide(menu)
    except Exception:  # a bug of ours: it costs this decision, never the seat's task
        log.exception("%s: cannot translate the bot's reply; checking or folding", player)
        return safe_action(menu)


class _NoBot:
    """The SDK clients want a bot; the bridge decides instead (this only when it cannot)."""

    def act(self, view: TableView, menu: ActionMenu) -> EngineAction:
        return safe_action(menu)


class TableSeat(BotClient):
    """A seat at an ordinary table, its decisions the ACPC bot's."""

    def __init__(
        self, bridge: Bridge, url: str, *, hands: int | None = None, **options: Any
    ) -> None:
        super().__init__(_NoBot(), url, think_in_thread=True, wait_for_big_blind=True, **options)
        self.bridge = bridge
        self.limit = hands
        self._fed = 0  # the last event seq given to the bridge
        # The last hand is being played, the seat sat out for the next: leave when it ends.
        # (The SDK's own limit leaves as the last hand starts, and the server folds it.)
        self._last_hand = False

    async def _reconcile(self) -> None:
        if not self._last_hand:  # (sat out on purpose: not sat in again)
            await super()._reconcile()

    async def _feed(self, seq: int, event: dict[str, Any], seat: int | None) -> None:
        if seq <= self._fed or seat is None:
            return
        self._fed = seq
        await self.bridge.on_event(event, seat)
        self._sat_out_by_the_clock(event, seat)
        if self.limit is None:
            return
        kind = event.get("type")
        if kind == "hand_started" and seat in event["seats"] and not self._last_hand:
            if self.bridge.seat.hands >= self.limit:
                self._last_hand = True
                await self._send(
                    {"type": "sit_out", "table": self.table, "id": self._next_id("sit_out")}
                )
        elif kind == "hand_ended" and self._last_hand and seat in dict(event["stacks"]):
            self._last_hand = False
            self._finish_when_done("hands")

    def _sat_out_by_the_clock(self, event: dict[str, Any], seat: int) -> None:
        """Our table sat the seat out, not we: for a bot that let its clock run out, the
        session ends (the seat leaves)."""
        if event.get("type") != "player_sat_out" or event.get("seat") != seat:
            return
        if self._last_hand or self.bridge.missed == 0:
            return  # ours (the last hand), or not the bot's silence (our connection's)
        missed = self.bridge.missed
        self.bridge.farewell = (
            f"did not answer in time ({missed} decision{'s' * (missed > 1)} in a row):"
            " sat out by the table, which the gateway leaves"
        )
        print(f"ERROR: the bot {self.bridge.farewell}", file=self.bridge.err, flush=True)
        self._finish_when_done("timeout")

    async def _on_message(self, m: dict[str, Any]) -> None:
        kind, seat = m.get("type"), self.seat
        if kind == "resumed" and m.get("table") == self.table:
            for missed in m.get("missed", []):
                await self._feed(int(missed["seq"]), missed["event"], self._last_seat)
            if not m.get("complete", True):
                self.bridge.seat.forget_hand()
        await super()._on_message(m)
        if kind == "event" and m.get("table") == self.table and self._last_seq == int(m["seq"]):
            await self._feed(int(m["seq"]), m["event"], seat)

    async def _think(self, decision: Decision, view: TableView, limit: float) -> None:
        action = await _decide(self.bridge, decision.menu, self.player)
        if action is None or decision.stale:
            return  # the table moved on (its clock acted for us)
        if self._leave_sent:  # we left while the bot thought: the server folds for us
            return
        if self._thinking is decision:
            self._thinking = None
        message = act_message(
            decision.table, decision.action_id, action, decision.menu, decision.seq
        )
        await self._act(message, decision.menu)


class TournamentSeat(TournamentClient):
    """A tournament entrant, its decisions the ACPC bot's, at whatever table it sits."""

    def __init__(self, bridge: Bridge, url: str, tournament: int, **who: Any) -> None:
        super().__init__(_NoBot(), url, tournament, **who)
        self.bridge = bridge
        self.current: tuple[str, int] | None = None  # (table, seat) the tournament gave us
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> Any:
        try:
            return await super().run()
        finally:
            for task in list(self._tasks):
                task.cancel()

    async def _on_message(self, ws: ClientConnection, m: dict[str, Any]) -> bool:
        kind = m.get("type")
        if kind == "tournament_seat":
            self.current = (str(m["table"]), int(m["seat"]))
            self.bridge.seat.forget_hand()
        done = await super()._on_message(ws, m)
        if kind == "event" and self.current is not None and m.get("table") == self.current[0]:
            await self.bridge.on_event(m["event"], self.current[1])
        return done

    async def _act(self, ws: ClientConnection, m: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._answer(ws, m))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, ws: ClientConnection, m: dict[str, Any]) -> None:
        menu = menu_from_json(int(m["seat"]), m["menu"])
        action = await _decide(self.bridge, menu, self.name)
        if action is None:
            return  # the table moved on (its clock acted for us)
        self._ids += 1
        self.outcome.decisions += 1
        message = act_message(str(m["table"]), f"d{self._ids}", action, menu, m["seq"])
        with contextlib.suppress(ConnectionClosed):
            await self._send(ws, message)
