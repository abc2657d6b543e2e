"""What the table runner's layers share: the names others import (:class:`Player`,
:class:`TableSettings`, :class:`TableError`, :class:`Subscriber`), and
:class:`TableState`, the state of one table that every layer reads and writes.

The state is declared here, in one place, so that each layer (one module a job, see
``server/tables/__init__.py``) can be read knowing what it touches.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine import Event, Mix, Rotation, Table, TableConfig
from server.bus import EventBus, LocalBus
from server.errors import Refusal
from server.fairness import Shuffle

__all__ = [
    "Clock",
    "Command",
    "HandStore",
    "HostRecord",
    "Player",
    "Seat",
    "SeatRequest",
    "Subscriber",
    "TableError",
    "TableSettings",
    "TableState",
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
class Command:
    """A request in the table's queue; the runner sets ``reply`` when it is carried out."""

    name: str
    session: Subscriber | None
    args: dict[str, Any]
    reply: asyncio.Future[dict[str, Any]]


@dataclass
class SeatRequest:
    """A private table: someone with the invite asks the host for a seat (hosted.py)."""

    player: Player
    session: Subscriber | None
    """Where the answer goes; None while the asker's connection is gone."""
    buy_in: int
    seat: int | None


HostRecord = tuple[int, str, int | None, dict[str, Any], dt.datetime]
"""A host's control, as stored: (host's player id, action, the player it was about (or
None), its details, when)."""


HandStore = Callable[[Table, dict[int, Player], dt.datetime, Shuffle], Awaitable[None]]
"""Stores a finished hand: the table, who sat where, when it started, its shuffle."""


@dataclass
class TableState:
    """One table's state. Only its runner's task reads or writes it (one task a table)."""

    settings: TableSettings
    store_hand: HandStore | None = None
    record_ledger: Callable[[int, int, str], Awaitable[None]] | None = None
    """Records a balance change outside a hand: (player id, amount, reason)."""
    record_host: Callable[[HostRecord], Awaitable[None]] | None = None
    """Records a private table's host's control (hosted.py)."""
    clock: Clock = time.monotonic
    new_shuffle: Callable[[str, int], Shuffle] = Shuffle.new
    """A hand's secret seed and deck (docs/fairness.md); tests may fix the seeds."""
    house_think_seconds: float = 0.2
    """How long house bots wait before acting, so people can follow them."""
    bus: EventBus = field(default_factory=LocalBus)
    """Where the table's public events and lobby summary go beyond its subscribers."""
    address: str | None = None
    """The websocket URL of the server process hosting the table, for the lobby: with
    several processes, a player connects there to sit (docs/operations.md)."""
    table: Table = field(init=False)
    seats: dict[int, Seat] = field(default_factory=dict, init=False)
    waiting: deque[tuple[Player, int, Subscriber]] = field(default_factory=deque, init=False)
    subscribers: dict[Subscriber, int | None] = field(default_factory=dict, init=False)
    seq: int = field(default=0, init=False)
    log: deque[tuple[int, int, Event]] = field(default_factory=deque, init=False)
    leaving: set[int] = field(default_factory=set, init=False)
    action_ids: OrderedDict[tuple[int, str], dict[str, Any]] = field(
        default_factory=OrderedDict, init=False
    )
    hands_played: int = field(default=0, init=False)
    house: dict[int, tuple[Player, Any, int]] = field(default_factory=dict, init=False)
    """House bots by seat: (player, strategy with act(view, menu), buy-in)."""

    def __post_init__(self) -> None:
        self.table = Table(self.settings.config)
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        # The lifecycle (runner.py).
        self._closing = False
        self._abandoned = False  # another process has taken the table over
        self._stopped = False  # run() has returned: nothing will answer a request
        self.started_at: dict[int, dt.datetime] = {}
        self.shuffles: dict[int, Shuffle] = {}
        # The decision and its clock (clock.py).
        self._decision: tuple[int, int, int] | None = None  # (hand, seat, actions so far)
        self._decision_seq = 0  # the table's seq when the decision began: its requests' seq
        self._decision_started = 0.0
        self._resend: int | None = None  # a seat whose player reconnected mid-decision
        self._absent: set[int] = set()  # disconnected seats whose clock ran out this hand
        # Seating and the ledger (seating.py).
        self._ever_seated = False
        self.pending_ledger: list[tuple[int, int, str]] = []  # (player id, amount, reason)
        self.seat_tokens: dict[str, int] = {}  # a seat's token -> its player's id
        # A private table and its host (hosted.py); a public table has no host.
        self.host: int | None = None  # the host's player id
        self.invite: str | None = None
        self.requests: dict[int, SeatRequest] = {}  # by player id, in the order asked
        self.host_sessions: set[Subscriber] = set()  # the host's connections here
        self.paused = False  # no hand is dealt while paused
        self.queued_chips: dict[int, int] = {}  # player id -> chips for the next hand
        self.queued_blinds: tuple[int, int, int] | None = None  # for the next hand
        self.close_when_over = False  # the host closed the table mid-hand
        self.bots_leaving: set[int] = set()  # house bots the host removed mid-hand
        self.pending_host: list[HostRecord] = []  # recorded in order, then dropped
        self.close_reason = "closed"  # what table_closed says (the host's: "host")
        # Table options (options.py) and chat (chat.py).
        self.bomb_votes: set[int] = set()  # player ids voting for a bomb pot next hand
        self.bomb_pot_next = 0  # boards of a bomb pot called during a hand, for the next
        self.waiting_for: str | None = None  # "database": a hand waits to be stored
        self._deferred: list[Command] = []  # until the hand is stored (storing.py)
        self.pause_ends: float | None = None  # the pause after a hand (loop time): shows, rabbit
        self.chat_log: deque[dict[str, Any]] = deque(maxlen=50)
        self.chat_times: dict[int, list[float]] = {}  # player id -> their recent lines
        self.muted: set[str] = set()  # names the host has muted
        self.spectator_chat = False  # a private table's spectators may chat
        # Mixed games (mixing.py).
        self.rotation = None if self.settings.mix is None else Rotation(self.settings.mix)
        self._rotated = 0  # hands_played when the rotation last moved on
        self._choice: tuple[int, float] | None = None  # dealer's choice: (seat, deadline)
        self._choice_resend: int | None = None  # the chooser is back: ask them again
        # Stored hands (storing.py).
        self._finished_through = 0  # hand number of the last hand over (being stored)
        self._stored_through = 0  # hand number of the last hand stored
        # What the lobby and the bus see (views.py).
        self._state_timer: asyncio.TimerHandle | None = None  # see Views._state_soon
        self.opened_at = self.clock()
        self.recent: deque[tuple[float, int]] = deque()  # (when a hand ended, its pot)

    async def _handle(self, command: Command) -> None:
        """Carry out one command: the runner's (runner.py); a layer that waits for
        commands itself (the show pause) hands them on through this."""
        raise NotImplementedError
