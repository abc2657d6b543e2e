"""The floor for ``bench.server``: a plain websockets server that relays the poker server's
message pattern with no engine and no database.

It speaks just enough of the protocol for the bench's bots: ``hello`` gets a ``welcome``,
``sit`` a ``seated``; once a table's six seats are taken it sends an ``action_request``
to one seat, and for each ``act`` from the seat asked it answers an ``ack``, sends the
same number of event messages to all six seats as the real server does for an action,
then asks the next seat. Every ``actions`` acts a ``hand_ended`` event goes to the six
and a new hand starts. The counts and message sizes come from a run of the real server
(:class:`Pattern`), in whichever game it dealt (hold'em, pot-limit Omaha, stud: the floor
knows no game, only how many messages a hand has), so the floor sends the same messages,
of the same sizes, in the same order of magnitude of work per hand: what is left is the
cost of websockets itself and of the JSON that any server has to read and write.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

SEATS = 6


@dataclass(frozen=True)
class Pattern:
    """A hand as the real server sent it, on average, to one table's six bots."""

    actions: float = 24.0
    """Action requests per hand (one act answers each)."""
    fanouts: float = 46.0
    """Messages per hand that go to every seated bot (events and deck messages)."""
    request_bytes: int = 300
    ack_bytes: int = 45
    event_bytes: int = 190

    def to_json(self) -> str:
        return json.dumps(self.__dict__)

    @classmethod
    def from_json(cls, text: str) -> Pattern:
        return cls(**json.loads(text))


def _dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"))


def _padded(message: dict[str, Any], size: int) -> str:
    """``message`` as JSON, padded with a ``pad`` field to about ``size`` characters."""
    text = _dumps(message)
    room = size - len(text) - len(',"pad":""')
    if room <= 0:
        return text
    message["pad"] = "x" * room
    return _dumps(message)


class FloorTable:
    """A counter in place of a table: whose turn it is, and how far into the hand."""

    def __init__(self, table_id: str, pattern: Pattern) -> None:
        self.table_id = table_id
        self.pattern = pattern
        self.seats: dict[int, ServerConnection] = {}
        self.to_act = 0
        self.hand = 0
        self.seq = 0
        self.left_in_hand = 0
        self.actions_owed = 0.0  # running remainders, so the averages come out exact
        self.fanouts_owed = 0.0
        self.fanouts_per_action = max(0.0, (pattern.fanouts - 1) / pattern.actions)

    def _new_hand(self) -> None:
        self.hand += 1
        self.actions_owed += self.pattern.actions
        self.left_in_hand = max(1, int(self.actions_owed))
        self.actions_owed -= self.left_in_hand

    async def _fan_out(self, kind: str) -> None:
        self.seq += 1
        event = {"type": "event", "table": self.table_id, "seq": self.seq}
        event["hand_number"] = self.hand
        text = _padded({**event, "event": {"type": kind}}, self.pattern.event_bytes)
        for ws in list(self.seats.values()):
            await ws.send(text)

    async def _ask(self) -> None:
        ws = self.seats.get(self.to_act)
        if ws is None:
            return
        request = {
            "type": "action_request",
            "table": self.table_id,
            "seq": self.seq,
            "hand_number": self.hand,
            "seat": self.to_act,
            "menu": {"can_check": True, "call": 0},
        }
        await ws.send(_padded(request, self.pattern.request_bytes))

    async def sit(self, seat: int, ws: ServerConnection) -> None:
        self.seats[seat] = ws
        if len(self.seats) == SEATS and self.hand == 0:
            self._new_hand()
            await self._ask()

    async def act(self, seat: int, ws: ServerConnection, action_id: str) -> str | None:
        """The table's answer to one act; ``None`` when all of it has been sent."""
        if seat != self.to_act or self.hand == 0:
            return _dumps({"type": "error", "code": "not_your_turn", "message": "wait"})
        self.to_act = (self.to_act + 1) % SEATS
        self.left_in_hand -= 1
        ack = {"type": "ack", "table": self.table_id, "action_id": action_id}
        await ws.send(_padded(ack, self.pattern.ack_bytes))
        self.fanouts_owed += self.fanouts_per_action
        while self.fanouts_owed >= 1:
            self.fanouts_owed -= 1
            await self._fan_out("action_taken")
        if self.left_in_hand <= 0:
            await self._fan_out("hand_ended")
            self._new_hand()
        await self._ask()
        return None


class Floor:
    """The relay server: tables ``b0`` .. ``b{n-1}``, as the bench's poker server names
    them."""

    def __init__(self, tables: int, pattern: Pattern) -> None:
        self.tables = {f"b{i}": FloorTable(f"b{i}", pattern) for i in range(tables)}
        self.players = 0

    async def handler(self, ws: ServerConnection) -> None:
        table: FloorTable | None = None
        seat = -1
        try:
            async for raw in ws:
                message = json.loads(raw)
                kind = message.get("type")
                reply: str | None
                if kind == "act" and table is not None:
                    reply = await table.act(seat, ws, str(message.get("action_id")))
                elif kind == "hello":
                    self.players += 1
                    player = {"id": self.players, "name": message.get("name"), "guest": True}
                    reply = _dumps({"type": "welcome", "version": 1, "player": player})
                elif kind == "sit" and message.get("table") in self.tables:
                    table, seat = self.tables[message["table"]], int(message["seat"])
                    seated = {"type": "seated", "table": table.table_id, "seat": seat}
                    await ws.send(_dumps({**seated, "stack": message.get("buy_in")}))
                    await table.sit(seat, ws)
                    reply = None
                else:
                    reply = _dumps({"type": "error", "code": "bad_message", "message": kind})
                if reply is not None:
                    await ws.send(reply)
        except ConnectionClosed:
            pass

    async def start(self, host: str, port: int) -> Server:
        """Start serving; compression off, as the poker server has it."""
        return await serve(self.handler, host, port, compression=None, max_size=16 * 1024)
