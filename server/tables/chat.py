"""Table chat and emoji reactions (docs/home-games.md#chat): who may talk (the players,
the host, and spectators where the table allows: always at a public table, at a private
one when its host says so), how fast (:data:`RATE`), and the host's mutes. Text goes out
as the player typed it, in JSON: the browser shows it as text, never as markup."""

from __future__ import annotations

import datetime as dt
from collections import deque
from typing import Any

from server import protocol
from server.errors import Code
from server.tables.base import Player, Subscriber, TableError
from server.tables.options import TableOptions

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


class Chat(TableOptions):
    """Chat lines and reactions, rate-limited, with the host's mutes."""

    def __post_init__(self) -> None:
        super().__post_init__()
        # Recent lines (their times) at this table, in all and by the speaker's address.
        self.chat_lines: deque[float] = deque()
        self.chat_addresses: dict[str, deque[float]] = {}

    def _cmd_chat(
        self, session: Subscriber, player: Player, text: str, address: str = ""
    ) -> dict[str, Any]:
        clean = protocol.visible_text(text)
        if not clean:
            raise TableError(Code.BAD_CHAT, "chat: the message is empty")
        seat = self._may_talk(session, player, address)
        line = {"type": "chat", "name": player.name, "seat": seat, "text": clean,
                "at": dt.datetime.now(dt.UTC).isoformat()}  # fmt: skip
        self.chat_log.append({"table": self.settings.table_id, **line})
        self._tell_everyone(line)
        return {"type": "chat_sent", "table": self.settings.table_id}

    def _cmd_react(
        self, session: Subscriber, player: Player, emoji: str, address: str = ""
    ) -> dict[str, Any]:
        seat = self._may_talk(session, player, address)
        self._tell_everyone({"type": "reaction", "name": player.name, "seat": seat,
                             "emoji": emoji})  # fmt: skip
        return {"type": "chat_sent", "table": self.settings.table_id}

    def _may_talk(self, session: Subscriber, player: Player, address: str) -> int | None:
        """The speaker's seat (None: not seated), once they may say something now: within
        their own rate, their address's (:data:`ADDRESS_RATE`) and the table's
        (:data:`TABLE_RATE`)."""
        seat = self._seat_of_player(player)
        if session not in self.subscribers and seat is None:
            raise TableError(Code.NOT_WATCHING, "watch the table first (spectate or sit)")
        if player.name in self.muted:
            raise TableError(Code.MUTED, "the host has muted you at this table")
        spectator = seat is None and player.id != self.host
        if spectator and self.private and not self.spectator_chat:
            raise TableError(
                Code.NO_CHAT, "spectators do not chat at this table (its host decides)"
            )
        now = self.clock()
        times = self.chat_times.setdefault(player.id, [])
        times[:] = [t for t in times if now - t < RATE[1]]
        if len(times) >= RATE[0]:
            raise TableError(
                Code.TOO_FAST, f"at most {RATE[0]} messages in {RATE[1]:g} seconds: wait a moment"
            )
        lines = self.chat_lines
        while lines and now - lines[0] >= TABLE_RATE[1]:
            lines.popleft()
        if len(lines) >= TABLE_RATE[0]:
            raise TableError(
                Code.TOO_FAST, f"this table's chat takes at most {TABLE_RATE[0]} messages in "
                f"{TABLE_RATE[1]:g} seconds: wait a moment",
            )  # fmt: skip
        theirs = self.chat_addresses.setdefault(address, deque())
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
        for quiet in [a for a, q in self.chat_addresses.items() if not q]:
            del self.chat_addresses[quiet]  # the map holds only the last 10 s's addresses
        return seat

    # -- the host's --------------------------------------------------------------------------

    def _host_mute(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        assert m.player is not None
        self.muted.add(m.player)
        return {"player": m.player}, self._id_of(m.player)

    def _host_unmute(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        assert m.player is not None
        self.muted.discard(m.player)
        return {"player": m.player}, self._id_of(m.player)

    def _host_spectator_chat(self, m: protocol.Host, bot: Any) -> tuple[dict[str, Any], int | None]:
        if m.on is None:
            raise TableError(Code.BAD_MESSAGE, "host: spectator_chat needs on (true or false)")
        self.spectator_chat = m.on
        return {"on": m.on}, None

    def _id_of(self, name: str) -> int | None:
        """The id of a player here (seated, asking for a seat, or watching), if known."""
        for occupant in self.seats.values():
            if occupant.player.name == name:
                return occupant.player.id
        for request in self.requests.values():
            if request.player.name == name:
                return request.player.id
        return None
