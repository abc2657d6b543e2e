"""The names a table's parts share with the rest of the server: :class:`Player`,
:class:`TableSettings`, :class:`TableError`, :class:`Subscriber`, a :class:`Seat` and
a :class:`SeatRequest`, and the records a table leaves to be written."""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import Mix, Table, TableConfig
from server.errors import Refusal
from server.fairness import Shuffle

__all__ = [
    "Clock",
    "HandStore",
    "HostRecord",
    "LedgerEntry",
    "Player",
    "Seat",
    "SeatRequest",
    "Subscriber",
    "TableError",
    "TableSettings",
]


class TableError(Refusal):
    """A request the table (or the lobby, a host, a tournament's table) refuses."""


class Clock(Protocol):
    """Time, injected: ``time.monotonic`` in production, a fake in tests."""

    def __call__(self) -> float: ...


class Subscriber(Protocol):
    """A session as a table sees it: something to send messages to, without waiting."""

    def send_table(self, table_id: str, hand_number: int, texts: Sequence[str]) -> None:
        """A table's messages, which a delayed spectator receives late."""
        ...

    def send(self, text: str, *, urgent: bool = False) -> None:
        """Send, in order. ``urgent`` marks an action request: it is written now (a
        player is waiting for it), and its answer may come past the rate limit."""
        ...

    def hand_ended(self, table_id: str, hand_number: int) -> None:
        """A hand is over (a spectator delayed by hands may see more)."""
        ...

    def stop_delay(self, table_id: str) -> None:
        """Deliver everything held back for a spectator's delay, and end it."""
        ...


@dataclass(frozen=True)
class Player:
    """Who sits in a seat (player ids exist only in the server, never in the engine)."""

    id: int
    name: str
    bot: bool = field(default=False, compare=False)
    """A program (a house bot, or a client that said ``bot`` in its hello): everyone
    sees it marked as one."""


@dataclass(frozen=True)
class TableSettings:
    """A table: its engine configuration and the server's clock rules."""

    table_id: str
    name: str
    config: TableConfig
    decision_seconds: float = 30.0
    time_bank_seconds: float = 60.0
    timeouts_to_sit_out: int = 2
    """Timeouts in a row after which a player is sat out."""
    reconnect_grace_seconds: float = 60.0
    show_seconds: float = 0.0
    """The pause after each hand, for players to show their cards and anyone to ask for
    the rabbit (server/tables/options.py); the hand is stored once it is over."""
    hands_kept: int = 3
    """Hands of events kept for clients resuming after a reconnection."""
    mix: Mix | None = None
    """A mixed game: the games the table rotates through (``config`` is the first's)."""
    level: tuple[int, int] = (0, 0)
    """A mixed game's stake level, its small and big bet (:meth:`engine.Mix.config`)."""


@dataclass
class Seat:
    """Who holds a seat, and how: their connection, clock and absence."""

    player: Player
    session: Subscriber | None
    time_bank: float
    since_seq: int
    """The table's seq when this player sat: earlier events were not theirs to see."""
    timeouts: int = 0
    disconnected_at: float | None = None


@dataclass
class SeatRequest:
    """A private table: someone with the invite asks the host for a seat (hosted.py)."""

    player: Player
    session: Subscriber | None
    """Where the answer goes; None while the asker's connection is gone."""
    buy_in: int
    seat: int | None


Done = tuple[dict[str, Any], int | None]
"""A host's control carried out: its details (told to everyone, recorded) and the id of
the player it was about (None: nobody)."""

LedgerEntry = tuple[int, int, str]
"""A balance change outside a hand: (player id, amount, reason)."""

HostRecord = tuple[int, str, int | None, dict[str, Any], dt.datetime]
"""A host's control, as stored: (host's player id, action, the player it was about (or
None), its details, when)."""


HandStore = Callable[[Table, dict[int, Player], dt.datetime, Shuffle], Awaitable[None]]
"""Stores a finished hand: the table, who sat where, when it started, its shuffle."""
