"""What goes into a table core and what comes out of it (:mod:`server.tables.core`).

In: the protocol's own messages (``protocol.Act``, ``protocol.Sit``, ...) from a
:class:`Caller`, and the few the server itself sends a table (:class:`Disconnect`,
:class:`HouseSit`, :class:`AddHouseBot`). Out: an :class:`Outbox`, the list of what the
runner (:mod:`server.tables.runner`) is to do about it: messages to send to whom, bus
publications, ledger entries and host controls to record, and a finished hand to store.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from server import protocol
from server.errors import Code, Refusal
from server.tables.base import HostRecord, LedgerEntry, Player, Subscriber, TableError

__all__ = [
    "AddHouseBot",
    "Caller",
    "Disconnect",
    "HandOver",
    "HouseSit",
    "Outbox",
    "Send",
    "SendTable",
    "StopDelay",
    "TableMessage",
]


@dataclass(frozen=True)
class Caller:
    """Who a message comes from: their connection, who they said hello as (None: nobody
    yet), and their address (chat's limits per address)."""

    session: Subscriber | None
    player_or_none: Player | None = None
    address: str = ""

    @property
    def player(self) -> Player:
        if self.player_or_none is None:
            raise TableError(
                Code.HELLO_FIRST, "say hello first (a guest name, an account token or a session)"
            )
        return self.player_or_none

    @property
    def subscriber(self) -> Subscriber:
        assert self.session is not None, "only the server's own messages come from nobody"
        return self.session


@dataclass(frozen=True)
class Disconnect:
    """The caller's connection has closed: its seat waits for it (the grace period)."""


@dataclass(frozen=True)
class HouseSit:
    """Seat house bots, all at once so that no hand starts with only some of them:
    ``{seat: (player, strategy)}``, each with ``stack``."""

    bots: dict[int, tuple[Player, Any]]
    stack: int


@dataclass(frozen=True)
class AddHouseBot:
    """A host's ``house_bot`` control, with the player the server made for the bot."""

    host: protocol.Host
    player: Player
    strategy: Any


TableMessage = (
    protocol.Sit
    | protocol.Spectate
    | protocol.RequestSeat
    | protocol.Host
    | protocol.Straddle
    | protocol.BombPot
    | protocol.Show
    | protocol.Rabbit
    | protocol.Chat
    | protocol.React
    | protocol.Leave
    | protocol.SitOut
    | protocol.SitIn
    | protocol.Act
    | protocol.ChooseGame
    | protocol.Resume
    | Disconnect
    | HouseSit
    | AddHouseBot
)


# -- out -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Send:
    """A message for one session alone: ``urgent`` marks an action request."""

    to: Subscriber
    text: str
    urgent: bool = False


@dataclass(frozen=True)
class SendTable:
    """A table's messages of hand ``hand_number``, for one session (a delayed spectator
    gets them late); ``ended`` adds that the hand is over."""

    to: Subscriber
    hand_number: int
    texts: tuple[str, ...]
    ended: bool = False


@dataclass(frozen=True)
class StopDelay:
    """Deliver what was held back for the session's delay, and end it (it sits)."""

    to: Subscriber


Delivery = Send | SendTable | StopDelay


@dataclass
class HandOver:
    """A finished hand to store before the next is dealt: its number, who sat where,
    when it started and its shuffle (the engine table still holds the hand)."""

    number: int
    players: dict[int, Player]
    started: Any
    shuffle: Any


@dataclass
class Outbox:
    """What one call of the core leaves the runner to do: deliver (in order) and
    publish at once; record the host's controls, then answer; store the hand handed over;
    record the ledger entries once no hand is being played or waits to be stored."""

    deliveries: list[Delivery] = field(default_factory=list)
    publish: list[tuple[str, bytes, bool]] = field(default_factory=list)
    """Bus publications: (topic, payload, retain)."""
    state_changed: bool = False
    """The table's retained state on the bus is to be published again soon."""
    host_records: list[HostRecord] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)
    reply: dict[str, Any] | None = None
    refusal: Refusal | None = None
    hand_over: HandOver | None = None
