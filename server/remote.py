"""Spectating, through the bus, a table another server process hosts.

The hosting process publishes each table's events as a spectator sees them (and each
hand's deck commitment), and after
every batch the table's state (a ``snapshot``), retained (``server.bus.topics``). A
:class:`RemoteTable` follows both for the spectators connected here: a newcomer gets the
latest state, then every event with a higher ``seq``, exactly the messages a spectator on
the hosting process gets. The broker delivers one publisher's messages in order, and a
state goes out after the events it covers; so spectators here never miss an event
silently: a gap in ``seq`` (events lost to a broker cut, or dropped by a publisher whose
queue was full) is repaired by sending them the next state, and a state ahead of the
last event they got (this process's subscription came back after a cut, and the broker's
retained state is newer) is sent to them at once. Either snapshot carries
``missed_events``: how many events they did not get (docs/protocol.md, "Events on MQTT").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import orjson

from server import protocol
from server.bus import EventBus
from server.errors import Code
from server.tables import Subscriber, TableError

log = logging.getLogger("pokerroom")
_ABOUT_THE_NEXT_HAND = frozenset({"deck_commitment", "game_changed", "game_choosing"})
"""Table messages with no seq, numbered with the hand they come before."""
_NOTICES = frozenset({"player_joined", "chat", "reaction", "straddle", "bomb_pot_votes"})
"""Table messages with no seq about the table now (who sat, what was said)."""

__all__ = ["RemoteTable"]


class RemoteTable:
    """One table hosted elsewhere, and who watches it from this process."""

    def __init__(
        self, table_id: str, bus: EventBus, ready_seconds: float = 5.0,
        host: Callable[[], str | None] | None = None, check_seconds: float = 5.0,
    ) -> None:  # fmt: skip
        self.table_id = table_id
        self.bus = bus
        self.ready_seconds = ready_seconds
        # Where the table is hosted now, by the leases (None: nowhere), looked at when
        # nothing has come for check_seconds: the empty state a table leaves when it
        # stops is not retained, and is missed by a subscription that was down then.
        self.host, self.check_seconds = host, check_seconds
        self.watchers: set[Subscriber] = set()
        self.snapshot: dict[str, Any] | None = None
        self.seq = 0  # the last event (or state) passed on
        self.hand_number = 0  # of the last event (or state): a notice goes with it
        self.behind = False  # an event was lost: wait for the next state
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None  # following, until nobody watches
        self.address: str | None = None  # of the process hosting the table

    async def watch(self, session: Subscriber) -> dict[str, Any]:
        """The table's snapshot for a new spectator, who gets every later event."""
        if not self.ready.is_set():
            try:
                async with asyncio.timeout(self.ready_seconds):
                    await self.ready.wait()
            except TimeoutError:
                raise TableError(
                    Code.UNREACHABLE, f"table {self.table_id!r} is not reachable: try again"
                ) from None
        # Nothing is awaited from here to the reply: no event slips in before it.
        self.watchers.add(session)
        assert self.snapshot is not None
        return dict(self.snapshot)

    async def follow(self) -> None:
        """Pass the table's messages on until it stops (or this task is cancelled)."""
        async with self.bus.subscribe(self.bus.topics.table(self.table_id)) as queue:
            while True:
                try:
                    topic, payload = queue.get_nowait()
                except asyncio.QueueEmpty:
                    try:
                        async with asyncio.timeout(self.check_seconds):
                            topic, payload = await queue.get()
                    except TimeoutError:
                        if self._gone():
                            return
                        continue
                try:
                    if topic.endswith("/state"):
                        if not self._state(payload):
                            return
                    else:
                        self._event(payload)
                except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                    log.warning("table %s: a malformed message on %s", self.table_id, topic)

    def _gone(self) -> bool:
        """Whether the table has stopped, or moved, by the leases (its spectators are
        told so)."""
        if self.host is None or not self.ready.is_set():
            return False
        where = self.host()
        if where == self.address:
            return False
        self._close("closed" if where is None else "moved")
        return True

    def _close(self, reason: str) -> None:
        closed = protocol.dumps({"type": "table_closed", "table": self.table_id, "reason": reason})
        for session in self.watchers:
            session.stop_delay(self.table_id)
            session.send(closed)

    def _state(self, payload: bytes) -> bool:
        """Take a state in; False when the table has gone from its host."""
        if not payload:  # the table has stopped (an empty retained message clears it)
            self._close("closed")
            return False
        snapshot = orjson.loads(payload)
        address = snapshot["summary"].get("address")
        if self.ready.is_set() and address != self.address:
            # Another process took the table over (its host died): its events are
            # numbered afresh. Spectators watch it again from the lobby.
            self._close("moved")
            return False
        self.address = address
        seq = int(snapshot["seq"])
        if self.ready.is_set() and seq <= self.seq:
            return True  # the events already told it
        missed = seq - self.seq
        self.snapshot, self.seq = snapshot, seq
        self.hand_number = int(snapshot["view"]["hand_number"])
        if self.ready.is_set():
            # Events seq - missed + 1 .. seq never reached the spectators here (a state
            # comes after the events it covers): they start again from here, and are
            # told how many events they missed.
            self.behind = False
            text = protocol.dumps({**snapshot, "missed_events": missed})
            for session in self.watchers:
                session.send_table(self.table_id, self.hand_number, [text])
            log.warning(
                "table %s: %d events did not reach this process (the broker was away?): "
                "its %d spectators here were sent its state again", self.table_id, missed,
                len(self.watchers),
            )  # fmt: skip
        self.ready.set()
        return True

    def _event(self, payload: bytes) -> None:
        if not self.ready.is_set() or self.behind:
            return
        message = orjson.loads(payload)
        if message["type"] in _NOTICES:
            for session in self.watchers:
                session.send_table(self.table_id, self.hand_number, [payload.decode()])
            return
        if message["type"] in _ABOUT_THE_NEXT_HAND:  # before a hand's first event: no seq
            for session in self.watchers:
                session.send_table(self.table_id, int(message["hand_number"]), [payload.decode()])
            return
        seq = int(message["seq"])
        if seq <= self.seq:
            return
        if seq != self.seq + 1:
            self.behind = True
            return
        self.seq = seq
        hand_number = self.hand_number = int(message["hand_number"])
        text = payload.decode()
        ended = message["event"]["type"] == "hand_ended"
        for session in self.watchers:
            session.send_table(self.table_id, hand_number, [text])
            if ended:
                session.hand_ended(self.table_id, hand_number)

    @staticmethod
    def finished_through(snapshot: dict[str, Any]) -> int:
        """The last hand over, by a snapshot (for a spectator's delay)."""
        view = snapshot["view"]
        return int(view["hand_number"]) - bool(view["hand_in_progress"])


async def run_followed(remote: RemoteTable) -> None:
    """:meth:`RemoteTable.follow`, with any failure logged: it costs the spectators of one
    table, never the server."""
    try:
        await remote.follow()
    except Exception:
        log.exception("following table %s failed", remote.table_id)
