"""One task per table: the only code that touches its ``engine.Table``.

A table is a :class:`TableCore` (``core``), synchronous and without I/O: messages in (the
protocol's own, by type), an :class:`Outbox` out. It is made of parts, one module a job,
each owning its state:

- ``views``: what each subscriber sees (``Fanout``: numbered, redacted events) and the
  snapshots, the lobby's line and what goes to the bus (``Views``);
- ``seating``: seats, the waiting list, sitting out, leaving, reconnecting, the ledger;
- ``house``: house bots;
- ``clock``: each decision, its clock and time bank, timeouts;
- ``options``: straddles, bomb pots, the pause after a hand (shows, the rabbit);
- ``mixing``: mixed games' rotation, and dealer's choice's pick;
- ``hosted``: private tables: the invite, seat requests and the host's controls;
- ``chat``: chat and reactions;
- ``messages``: what goes in (``Caller``, the server's own messages) and comes out.

:class:`TableRunner` (``runner``) is the asyncio pump around it: the queue, waiting
until the core's next deadline, and the awaits (the ledger, the host's records, storing
each finished hand before the next is dealt). docs/architecture.md draws it.
"""

from server.tables.actions import action_from_wire, default_action
from server.tables.base import (
    Clock,
    HandStore,
    HostRecord,
    Player,
    Subscriber,
    TableError,
    TableSettings,
)
from server.tables.core import TableCore
from server.tables.messages import AddHouseBot, Caller, Disconnect, HouseSit, Outbox
from server.tables.runner import TableRunner
from server.tables.storing import store_with

__all__ = [
    "AddHouseBot",
    "Caller",
    "Clock",
    "Disconnect",
    "HandStore",
    "HostRecord",
    "HouseSit",
    "Outbox",
    "Player",
    "Subscriber",
    "TableCore",
    "TableError",
    "TableRunner",
    "TableSettings",
    "action_from_wire",
    "default_action",
    "store_with",
]
