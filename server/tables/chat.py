"""Table chat and emoji reactions (docs/home-games.md#chat): who may talk (the players,
the host, and spectators where the table allows: always at a public table, at a private
one when its host says so), how fast (:data:`RATE`), and the host's mutes. Text goes out
as the player typed it, in JSON: the browser shows it as text, never as markup."""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from server import protocol
from server.errors import Code
from server.tables.base import Done, TableError
from server.tables.messages import Caller

if TYPE_CHECKING:
    from server.tables.core import TableCore

RATE = (5, 10.0)
"""At most 5 chat messages or reactions in 10 seconds a player."""
ADDRESS_RATE = (10, 10.0)
"""At most 10 in 10 seconds at one table from the players at one address: guests are free
to make, so the cap per player alone is not enough."""
TABLE_RATE = (20, 10.0)
"""At most 20 in 10 seconds at one table in all: each line goes to everyone watching, so
a crowd of guests a line each would otherwise cost the server a line times the crowd."""
CHAT_KEPT = 50
"""Chat lines a snapshot carries, for whoever arrives or reloads."""


class Chat:
    """Chat lines and reactions, rate-limited, with the host's mutes."""

    def __init__(self, core: TableCore) -> None:
        self.core = core
        self.log: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.times: dict[int, list[float]] = {}  # player id -> their recent lines
        # Recent lines (their times) at this table, in all and by the speaker's address.
        self.lines: deque[float] = deque()
        self.addresses: dict[str, deque[float]] = {}
        self.muted: set[str] = set()  # names the host has muted
        self.spectators_may_chat = False  # at a private table (its host says)

    def chat(self, m: protocol.Chat, caller: Caller) -> dict[str, Any]:
        core = self.core
        clean = protocol.visible_text(m.text)
        if not clean:
            raise TableError(Code.BAD_CHAT, "chat: the message is empty")
        seat = self._may_talk(caller)
        line = {"type": "chat", "name": caller.player.name, "seat": seat, "text": clean,
                "at": core.wall().isoformat()}  # fmt: skip
        self.log.append({"table": core.table_id, **line})
        core.fanout.tell_everyone(line)
        return {"type": "chat_sent", "table": core.table_id}

    def react(self, m: protocol.React, caller: Caller) -> dict[str, Any]:
        seat = self._may_talk(caller)
        self.core.fanout.tell_everyone({"type": "reaction", "name": caller.player.name,
                                        "seat": seat, "emoji": m.emoji})  # fmt: skip
        return {"type": "chat_sent", "table": self.core.table_id}

    # -- the host's controls -----------------------------------------------------------------

    def mute(self, m: protocol.Host) -> Done:
        assert m.player is not None
        self.muted.add(m.player)
        return {"player": m.player}, self._id_of(m.player)

    def unmute(self, m: protocol.Host) -> Done:
        assert m.player is not None
        self.muted.discard(m.player)
        return {"player": m.player}, self._id_of(m.player)

    def spectators(self, m: protocol.Host) -> Done:
        if m.on is None:
            raise TableError(Code.BAD_MESSAGE, "host: spectator_chat needs on (true or false)")
        self.spectators_may_chat = m.on
        return {"on": m.on}, None

    def _id_of(self, name: str) -> int | None:
        """The id of a player here (seated, or asking for a seat), if known."""
        for occupant in self.core.seats.occupants.values():
            if occupant.player.name == name:
                return occupant.player.id
        requests = self.core.host.requests.values()
        return next((r.player.id for r in requests if r.player.name == name), None)

    def _may_talk(self, caller: Caller) -> int | None:
        """The speaker's seat (None: not seated), once they may say something now: within
        their own rate, their address's (:data:`ADDRESS_RATE`) and the table's
        (:data:`TABLE_RATE`)."""
        core, player = self.core, caller.player
        seat = core.seats.of_player(player)
        if caller.session not in core.fanout.subscribers and seat is None:
            raise TableError(Code.NOT_WATCHING, "watch the table first (spectate or sit)")
        if player.name in self.muted:
            raise TableError(Code.MUTED, "the host has muted you at this table")
        spectator = seat is None and player.id != core.host.host
        if spectator and core.host.private and not self.spectators_may_chat:
            raise TableError(
                Code.NO_CHAT, "spectators do not chat at this table (its host decides)"
            )
        now = core.now
        times = self.times.setdefault(player.id, [])
        times[:] = [t for t in times if now - t < RATE[1]]
        if len(times) >= RATE[0]:
            raise TableError(
                Code.TOO_FAST, f"at most {RATE[0]} messages in {RATE[1]:g} seconds: wait a moment"
            )
        lines = self.lines
        while lines and now - lines[0] >= TABLE_RATE[1]:
            lines.popleft()
        if len(lines) >= TABLE_RATE[0]:
            raise TableError(
                Code.TOO_FAST, f"this table's chat takes at most {TABLE_RATE[0]} messages in "
                f"{TABLE_RATE[1]:g} seconds: wait a moment",
            )  # fmt: skip
        theirs = self.addresses.setdefault(caller.address, deque())
        while theirs and now - theirs[0] >= ADDRESS_RATE[1]:
            theirs.popleft()
        if len(theirs) >= ADDRESS_RATE[0]:
            raise TableError(
                Code.TOO_FAST, f"at most {ADDRESS_RATE[0]} messages in {ADDRESS_RATE[1]:g} "
                "seconds from one address at a table: wait a moment",
            )  # fmt: skip
        times.append(now)
        lines.append(now)
        theirs.append(now)
        for quiet in [a for a, q in self.addresses.items() if not q]:
            del self.addresses[quiet]  # the map holds only the last 10 s's addresses
        return seat
