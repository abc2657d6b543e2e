"""One task per table: the only code that touches its ``engine.Table``.

Sessions send a :class:`TableRunner` commands through its queue and await the reply; the
runner applies them in order, deals hands, runs each decision's clock, answers timeouts,
fans the engine's events out (each subscriber gets them redacted for its seat, with a
sequence number), and stores every finished hand before dealing the next one.

:class:`TableRunner` is built in layers, one module a job, each a class using only the
layers below it and the state that ``base`` declares:

- ``base``: the shared names (Player, TableSettings, TableError, Subscriber) and the state;
- ``actions``: actions as the wire names them, and what a player nobody answers for does;
- ``views``: what each subscriber, the lobby and the bus may see (redacted events, snapshots);
- ``seating``: seats, the waiting list, sitting out, leaving, reconnecting, the ledger;
- ``house``: house bots;
- ``clock``: each decision, the answer to it, its clock and time bank, timeouts;
- ``storing``: storing each finished hand, then settling who leaves;
- ``mixing``: mixed games' rotation, and dealer's choice's pick, between hands;
- ``hosted``: private tables: the invite, seat requests and the host's controls;
- ``runner``: the command loop, dealing, and the table's lifecycle.

A table rule (a host control, a straddle, a timer) belongs to the layer of its job, and
each command a client may send is a ``_cmd_<name>`` method there.
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
from server.tables.runner import TableRunner
from server.tables.storing import store_with

__all__ = [
    "Clock",
    "HandStore",
    "HostRecord",
    "Player",
    "Subscriber",
    "TableError",
    "TableRunner",
    "TableSettings",
    "action_from_wire",
    "default_action",
    "store_with",
]
